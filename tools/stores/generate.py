#!/usr/bin/env python3
"""Writes Corpus/stores/Employees.sqlite: scenario 4's store, laid out as Core
Data lays out an SQLite store (ZEMPLOYEEENTITY with Z_PK, Z_ENT, Z_OPT, ZNAME
and ZCONTACT; Z_METADATA with its Z_PLIST), each contact archived in the
ZCONTACT blob column as NSKeyedArchiver archives an `App.Contact` (tel, fax,
email), one employee with no contact (NULL). The guide's stores page walks
through it, with Corpus/rules/contacts.json.

    python3 tools/stores/generate.py Corpus/stores
"""
import os
import plistlib
import sqlite3
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "Corpus/stores"
os.makedirs(out, exist_ok=True)
path = os.path.join(out, "Employees.sqlite")
if os.path.exists(path):
    os.remove(path)

CONTACTS = [
    ("Ada Lovelace", "+1 555 0100", "+1 555 0101", "ada@example.com"),
    ("Grace Hopper", "+44 20 7946 0000", "", "grace@example.org"),
    ("Zero One", "0", "1", "\u00fcn\u00efcode@example.net"),
]


def contact_archive(tel, fax, email):
    """The keyed archive NSKeyedArchiver writes for an App.Contact (binary)."""
    uid = plistlib.UID
    objects = [
        "$null",
        {"$class": uid(5), "tel": uid(2), "fax": uid(3), "email": uid(4)},
        tel, fax, email,
        {"$classname": "App.Contact", "$classes": ["App.Contact", "NSObject"]},
    ]
    archive = {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": uid(1)}, "$objects": objects}
    return plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False)


db = sqlite3.connect(path)
db.executescript("""
    CREATE TABLE ZEMPLOYEEENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZCONTACT BLOB);
    CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
""")
for pk, (name, tel, fax, email) in enumerate(CONTACTS, start=1):
    db.execute("INSERT INTO ZEMPLOYEEENTITY VALUES (?, 1, 1, ?, ?)", (pk, name, contact_archive(tel, fax, email)))
db.execute("INSERT INTO ZEMPLOYEEENTITY VALUES (4, 1, 1, 'No Contact', NULL)")
metadata = plistlib.dumps({"NSStoreType": "SQLite", "NSStoreModelVersionIdentifiers": [""]}, fmt=plistlib.FMT_BINARY)
db.execute("INSERT INTO Z_METADATA VALUES (1, '6A1F2B3C-0000-4000-8000-000000000004', ?)", (metadata,))
db.commit()
db.execute("VACUUM")
db.close()
print(path)
