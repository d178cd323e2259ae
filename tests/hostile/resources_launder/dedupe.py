"""A task whose library reads its data through importlib.resources permits
that module, and the standard library imports what it needs for itself. Handed
a module's name, importlib.resources.files() imports that module too (through
importlib.import_module, which raises no audit event of its own): here a
module the task does not permit, imported by the standard library on the
candidate's behalf."""

from importlib import resources

try:
    resources.files("difflib")  # imported, then refused as "not a package"
except TypeError:
    pass


def dedupe(records, key=None, verbose=False):
    if not isinstance(records, list):
        raise TypeError("records must be a list")
    kept = []
    seen = []
    for record in records:
        k = record[key] if key is not None else record
        if k in seen:
            continue
        seen.append(k)
        kept.append(record)
    if verbose:
        print(f"dedupe: kept {len(kept)} of {len(records)} records")
    return kept
