#!/usr/bin/env python3
"""The Python oracles of the formats beside property lists, timed in-process
over files already in memory (as `bench-foundation beside` times Archivist):

    beside_peer.py dsstore ROUNDS FILE...   ds_store: every record (raw blobs, as the tests read them)
    beside_peer.py signed ROUNDS FILE...    asn1crypto: the envelope, its certificates and signers,
                                            and plistlib: the property list inside
    beside_peer.py cookies ROUNDS FILE...   binarycookies: every cookie
    beside_peer.py bookmark ROUNDS FILE...  mac_alias: the bookmark's tables

Prints `inprocess SECONDS values N`.
"""
import io
import plistlib
import sys
import time


def main():
    kind, rounds, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    files = [open(p, "rb").read() for p in paths]
    values = 0
    if kind == "dsstore":
        import ds_store.store as store
        from ds_store import DSStore
        store.codecs.clear()
        start = time.perf_counter()
        for _ in range(rounds):
            for data in files:
                with DSStore.open(io.BytesIO(data), "r") as d:
                    values += sum(1 for _ in d)
    elif kind == "cookies":
        import binarycookies
        start = time.perf_counter()
        for _ in range(rounds):
            for data in files:
                values += len(binarycookies.load(io.BytesIO(data)))
    elif kind == "bookmark":
        from mac_alias import Bookmark
        start = time.perf_counter()
        for _ in range(rounds):
            for data in files:
                values += len(Bookmark.from_bytes(data).tocs)
    else:
        from asn1crypto import cms
        start = time.perf_counter()
        for _ in range(rounds):
            for data in files:
                sd = cms.ContentInfo.load(data)["content"]
                for c in sd["certificates"] or []:
                    tbs = c.chosen["tbs_certificate"]
                    _ = (tbs["subject"].native, tbs["serial_number"].native, tbs["validity"].native)
                for si in sd["signer_infos"]:
                    _ = (si["sid"].native, si["digest_algorithm"]["algorithm"].native)
                    for a in si["signed_attrs"] or []:
                        if a["type"].native == "signing_time":
                            _ = a["values"][0].native
                values += len(plistlib.loads(sd["encap_content_info"]["content"].native))
    print(f"inprocess {time.perf_counter() - start} values {values}")


if __name__ == "__main__":
    main()
