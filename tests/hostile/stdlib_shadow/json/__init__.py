"""A package named like the standard library's json."""


def dumps(obj):
    return "dedupe: kept {kept} of {total} records".format(**obj)
