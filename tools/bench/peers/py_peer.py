"""Python peers for tools/bench/run.

  py_peer.py parse FILE...                 plistlib.load
  py_peer.py convert xml|bin|json OUT FILE...  plistlib, then plistlib.dump (or json.dumps); OUT '-' or a folder
  py_peer.py bpylist2 FILE                 bpylist2's archiver.unarchive of the W3 archive
  py_peer.py nska FILE [--json]            nska_deserialize.deserialize_plist (and json.dumps of it)
  py_peer.py nibarchive FILE...            nibarchive's NIBArchiveParser(verify=True).parse of each iOS nib
"""
import base64
import datetime
import json
import os
import plistlib
import sys


def to_json(value):
    def default(o):
        if isinstance(o, (bytes, bytearray)):
            return base64.b64encode(o).decode("ascii")
        if isinstance(o, datetime.datetime):
            return o.strftime("%Y-%m-%dT%H:%M:%SZ")
        if isinstance(o, plistlib.UID):
            return {"CF$UID": o.data}
        return str(o)
    return json.dumps(value, default=default, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def convert(fmt, out, paths):
    for path in paths:
        with open(path, "rb") as f:
            value = plistlib.load(f)
        if fmt == "json":
            data = to_json(value)
        else:
            data = plistlib.dumps(value, fmt=plistlib.FMT_XML if fmt == "xml" else plistlib.FMT_BINARY, sort_keys=True)
        if out == "-":
            sys.stdout.buffer.write(data)
        else:
            stem = os.path.splitext(os.path.basename(path))[0]
            with open(os.path.join(out, stem + ".plist"), "wb") as f:
                f.write(data)


def bpylist2(path):
    from bpylist2 import archiver

    class Decoded:
        def __init__(self, fields):
            self.fields = fields

    def decoder(names):
        class Cls:
            @staticmethod
            def decode_archive(archive):
                return Decoded({name: archive.decode(name) for name in names})
        return Cls

    archiver.update_class_map({
        "bench_foundation.BenchOwner": decoder(["name", "id"]),
        "bench_foundation.BenchItem": decoder(["name", "note", "index", "score", "flag", "owner"]),
        "bench_foundation.BenchGroup": decoder(["title", "items"]),
        "bench_foundation.BenchLibrary": decoder(["groups", "owners"]),
    })
    with open(path, "rb") as f:
        root = archiver.unarchive(f.read())
    items = sum(len(g.fields["items"]) for g in root.fields["groups"])
    print("items", items)


def nska(path, as_json):
    import nska_deserialize
    with open(path, "rb") as f:
        value = nska_deserialize.deserialize_plist(f)
    if as_json:
        sys.stdout.buffer.write(to_json(value))


def main(argv):
    if len(argv) >= 2 and argv[0] == "parse":
        for path in argv[1:]:
            with open(path, "rb") as f:
                plistlib.load(f)
    elif len(argv) >= 4 and argv[0] == "convert":
        convert(argv[1], argv[2], argv[3:])
    elif len(argv) == 2 and argv[0] == "bpylist2":
        bpylist2(argv[1])
    elif len(argv) >= 2 and argv[0] == "nska":
        nska(argv[1], "--json" in argv[2:])
    elif len(argv) >= 2 and argv[0] == "nibarchive":
        from nibarchive import NIBArchiveParser
        for path in argv[1:]:
            with open(path, "rb") as f:
                NIBArchiveParser(verify=True).parse(f)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
