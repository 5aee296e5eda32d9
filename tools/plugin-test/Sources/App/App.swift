// The plugin test's app (a library target, as the guide's manifest declares
// it): its resources are what the lint plugin checks.
public enum App {
    public static let name = "PluginTest"
}
