// Rust `plist` crate peer for tools/bench/run (built offline into the run's temporary folder
// against Debian's crate registry).
//   rust_peer parse FILE...
//   rust_peer convert xml|bin OUT FILE...   OUT is '-' (stdout) or a folder
use std::io::Write;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("parse") if args.len() >= 2 => {
            for path in &args[1..] {
                if let Err(e) = plist::Value::from_file(path) {
                    eprintln!("{}: {}", path, e);
                    std::process::exit(1);
                }
            }
            0
        }
        Some("convert") if args.len() >= 4 => {
            let xml = args[1] == "xml";
            let out = &args[2];
            for path in &args[3..] {
                let value = match plist::Value::from_file(path) {
                    Ok(v) => v,
                    Err(e) => { eprintln!("{}: {}", path, e); std::process::exit(1); }
                };
                let result = if out == "-" {
                    let mut buf: Vec<u8> = Vec::new();
                    let r = if xml { value.to_writer_xml(&mut buf) } else { value.to_writer_binary(&mut buf) };
                    if r.is_ok() {
                        if let Err(e) = std::io::stdout().lock().write_all(&buf) {
                            eprintln!("{}: {}", path, e);
                            std::process::exit(1);
                        }
                    }
                    r
                } else {
                    let stem = Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                    let target = format!("{}/{}.plist", out, stem);
                    if xml { value.to_file_xml(&target) } else { value.to_file_binary(&target) }
                };
                if let Err(e) = result {
                    eprintln!("{}: {}", path, e);
                    std::process::exit(1);
                }
            }
            0
        }
        _ => { eprintln!("usage: rust_peer parse FILE... | convert xml|bin OUT FILE..."); 2 }
    };
    std::process::exit(code);
}
