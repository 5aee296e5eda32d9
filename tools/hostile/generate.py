#!/usr/bin/env python3
"""Writes Corpus/hostile/: inputs built to hurt a property-list reader, each
with the error Archivist must give (EXPECTED.tsv: file, expected lint verdict
(`error` or `ok`), a substring of the message).

    python3 tools/hostile/generate.py Corpus/hostile
"""
import os
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "Corpus/hostile"
os.makedirs(out, exist_ok=True)
rows = []


def save(name, data, verdict, needle, what):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    rows.append((name, verdict, needle, what))


def bplist(objects, top=0, ref_size=4, off_size=4):
    """objects: list of encoded object bodies (bytes, with refs already sized)."""
    body = b"bplist00"
    offsets = []
    for o in objects:
        offsets.append(len(body))
        body += o
    table = len(body)
    for off in offsets:
        body += off.to_bytes(off_size, "big")
    body += bytes(6) + bytes([off_size, ref_size]) + struct.pack(">QQQ", len(objects), top, table)
    return body


def array(refs, ref_size=4):
    n = len(refs)
    head = bytes([0xA0 | n]) if n < 15 else bytes([0xAF, 0x12]) + struct.pack(">I", n)
    return head + b"".join(r.to_bytes(ref_size, "big") for r in refs)


XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'

# Entity tricks: expansion bombs, external entities, DTDs pointing at local files.
lol = "".join('<!ENTITY l%d "%s">' % (i, ("&l%d;" % (i - 1)) * 10 if i else "lol") for i in range(10))
save("billion-laughs.xml", XML_HEAD + "<!DOCTYPE plist [%s]>\n<plist><string>&l9;</string></plist>\n" % lol,
     "error", "entit", "XML entity-expansion bomb")
save("xxe-file.xml", XML_HEAD + '<!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<plist><string>&x;</string></plist>\n',
     "error", "entit", "external entity naming /etc/passwd")
save("xxe-parameter.xml", XML_HEAD + '<!DOCTYPE plist [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>\n<plist><true/></plist>\n',
     "ok", "", "an external parameter entity: never loaded (no DTD loading), so the plist is just <true/>")
save("dtd-local-file.xml", XML_HEAD + '<!DOCTYPE plist SYSTEM "file:///etc/passwd">\n<plist><string>safe</string></plist>\n',
     "ok", "", "a DOCTYPE pointing at a local file: never loaded")
save("many-attributes.xml", XML_HEAD + '<plist version="1.0"><dict ' + " ".join('a%d="x"' % i for i in range(50_000)) + "><key>k</key><true/></dict></plist>\n",
     "error", "attributes", "an element with 50,000 attributes (libxml2 compares each with those before it: seconds)")

# 100,000-deep nesting in each format.
N = 100_000
save("deep.xml", XML_HEAD + "<plist>" + "<array>" * N + "</array>" * N + "</plist>\n", "error", "deeper than 512", "100,000 nested XML arrays")
save("deep.json", "[" * N + "]" * N, "error", "deeper than 512", "100,000 nested JSON arrays")
save("deep.strings", "(" * N + ")" * N, "error", "deeper than 512", "100,000 nested OpenStep arrays")
save("deep.bplist", bplist([array([i + 1]) for i in range(N - 1)] + [array([])]), "error", "deeper than 512", "100,000 nested binary arrays")

# Binary structure attacks.
good = bplist([array([1]), b"\x09"])
table = len(good) - 32 - 8
bad_self = bytearray(good)
bad_self[table + 4:table + 8] = table.to_bytes(4, "big")
save("offset-into-table.bplist", bytes(bad_self), "error", "offset", "an offset-table entry pointing into the table")
bad_end = bytearray(good)
bad_end[table:table + 4] = (10**6).to_bytes(4, "big")
save("offset-past-end.bplist", bytes(bad_end), "error", "offset", "an offset pointing past the end")
save("contains-itself.bplist", bplist([array([0])]), "error", "contains itself", "an array that contains itself")
save("mutual-cycle.bplist", bplist([array([1]), array([0])]), "error", "contains itself", "two arrays containing each other")
huge = bytearray(good)
huge[-24:-16] = struct.pack(">Q", 1 << 60)
save("claims-2-60-objects.bplist", bytes(huge), "error", "object count", "a trailer claiming 2^60 objects")
save("string-length-4gib.bplist", bplist([bytes([0x5F, 0x13]) + struct.pack(">Q", 1 << 32) + b"abc"]), "error", "larger than the file", "an ASCII string claiming 4 GiB")
save("data-length-overflow.bplist", bplist([bytes([0x4F, 0x13]) + struct.pack(">Q", (1 << 64) - 1)]), "error", "larger than the file", "a data length of 2^64-1")
save("ref-size-9.bplist", good[:-26] + bytes([9]) + good[-25:], "error", "size 9", "an offset size of 9")
# Shared references that would expand to 2^60 values (a "billion laughs" without entities).
levels = 60
objs = [array([i + 1, i + 1]) for i in range(levels)] + [b"\x09"]
save("shared-explosion.bplist", bplist(objs), "error", "expands to more than", "2^60 paths through shared arrays (a billion laughs without entities)")
# One 600 KB data object referenced 2,000 times: few values, 1.2 GB once converted.
shared_data = bytes([0x4F, 0x12]) + struct.pack(">I", 600_000) + b"*" * 600_000
save("shared-data-bytes.bplist", bplist([array([1] * 2_000, ref_size=2), shared_data], ref_size=2),
     "error", "shared strings and data expand", "a 600 KB data object referenced 2,000 times (1.2 GB of output under the object limit)")

# Text encodings and duplicate keys.
save("lone-surrogate.json", '{"a": "\\ud800"}', "error", "surrogate", "a lone UTF-16 surrogate")
save("invalid-utf8.xml", XML_HEAD.encode() + b"<plist><string>\xc3\x28</string></plist>\n", "error", "UTF-8", "invalid UTF-8 in a string")
save("invalid-utf16.strings", b"\xff\xfe" + "\"a\" = \"".encode("utf-16-le") + b"\x00\xd8" + "\";".encode("utf-16-le"), "error", "lone UTF-16 surrogate", "a lone surrogate in UTF-16 text")
save("duplicate-keys.xml", XML_HEAD + "<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>\n", "error", "duplicate key", "a repeated key")
save("integer-overflow.xml", XML_HEAD + "<plist><integer>99999999999999999999999999</integer></plist>\n", "error", "integer", "an integer beyond 64 bits")
save("integer-overflow.json", "[123456789012345678901234567890e99999]", "error", "beyond the range", "a number beyond a double")

# Keyed archives.
def archive(objects, top=1):
    def enc(v):
        if isinstance(v, bool):
            return "<true/>" if v else "<false/>"
        if isinstance(v, int):
            return "<integer>%d</integer>" % v
        if isinstance(v, str):
            return "<string>%s</string>" % v
        if isinstance(v, tuple) and v[0] == "uid":
            return "<dict><key>CF$UID</key><integer>%d</integer></dict>" % v[1]
        if isinstance(v, list):
            return "<array>" + "".join(enc(x) for x in v) + "</array>"
        if isinstance(v, dict):
            return "<dict>" + "".join("<key>%s</key>%s" % (k, enc(x)) for k, x in v.items()) + "</dict>"
        raise ValueError(v)
    return XML_HEAD + "<plist>" + enc({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": ("uid", top)},
                                        "$objects": ["$null"] + objects}) + "</plist>\n"

UID = lambda n: ("uid", n)
save("archive-class-loop.plist", archive([{"x": 1, "$class": UID(2)}, {"y": 2, "$class": UID(1)}]),
     "error", "$classname", "objects whose $class entries point at each other")
save("archive-class-self.plist", archive([{"x": 1, "$class": UID(1)}]), "error", "$classname", "an object that is its own class")
save("archive-classes-uids.plist", archive([{"$class": UID(2)}, {"$classname": "A", "$classes": [UID(1), UID(2)]}]),
     "error", "$classes", "a $classes chain of UIDs, not names")
save("archive-uid-self.plist", archive([{"me": UID(1), "list": [UID(1), UID(1)], "$class": UID(2)}, {"$classname": "Node", "$classes": ["Node"]}]),
     "ok", "", "an object whose fields point at itself (a cycle: valid)")
save("archive-uid-past-end.plist", archive([{"next": UID(1000), "$class": UID(2)}, {"$classname": "A", "$classes": ["A"]}]),
     "error", "past the", "a UID far past $objects")
save("archive-top-missing.plist", archive([], top=5), "error", "past the", "$top pointing past $objects")

# Inputs the fuzzers found (tools/fuzz/run), kept as regressions.
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions")
for name, verdict, needle, what in [
    ("fuzz-schema-shared-containers.plist", "ok", "",
     "an archive of NSArrays shared along many paths: `schema` walked every path (exponential); now each container once"),
    ("fuzz-shared-expansion.bplist", "error", "expands to more than",
     "825 bytes of shared references that expand to millions of values: converting it took seconds"),
]:
    with open(os.path.join(here, name), "rb") as src:
        save(name, src.read(), verdict, needle, what)

with open(os.path.join(out, "EXPECTED.tsv"), "w") as f:
    f.write("file\tlint\tmessage contains\twhat it is\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
print("wrote %d files to %s" % (len(rows), out))
