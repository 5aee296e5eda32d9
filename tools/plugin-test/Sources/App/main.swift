// The plugin test's app: its resources are what the lint plugin checks.
print("PluginTest")
