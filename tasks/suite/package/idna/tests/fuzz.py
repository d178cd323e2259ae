"""Differential fuzzing of the idna task: generated domain names and labels.

Labels are drawn from the scripts and code points the IDNA rules treat
apart: ASCII letters, digits and hyphens (leading, trailing, in the third
and fourth places, "xn--" prefixes, valid and broken punycode), Latin with
precomposed and combining marks, German sharp s and final sigma (the
transitional mappings), Greek with the keraia, Hebrew with geresh, Arabic
and Arabic-Indic digits (the bidi rules), Devanagari with virama and the
joiners (CONTEXTJ), the middle dot and katakana middle dot (CONTEXTO),
CJK, fullwidth forms, uppercase, soft hyphens, disallowed and unassigned
code points; lengths run up to and over 63 per label and 253 per name, with
every separator UTS 46 maps to a full stop. Each domain is encoded and
decoded with the option sets of the cases and remapped by UTS 46; each
label goes through alabel, ulabel, check_label and the context checks."""

from hypothesis import strategies as st

PIECES = st.sampled_from([
    "a", "z", "A", "Z", "0", "9", "-", "--", "xn--", "XN--", "xn--bcher-kva", "xn--zz",
    "xn--a", "xn--ls8h", "\u00fc", "u\u0308", "\u00df", "\u03c2", "\u03c3", "\u0375",
    "\u03b1", "\u05d0", "\u05f3", "\u05f4", "\u0627", "\u0628", "\u0660", "\u0661",
    "\u06f0", "\u06f1", "\u064b", "\u0915", "\u094d", "\u0937", "\u200c", "\u200d",
    "\u00b7", "l", "\u30fb", "\u30a2", "\u4e00", "\u3042", "\u65e5", "\uff41", "\uff21",
    "\u00ad", "\u2160", "\u01c5", "\u0221", "\u0300", "\u0378", "\ufdd0", "\U0001F4A9",
    "\U000e0001", "_", " ", "/", "\u2488", "\u0130", "\u212a"])
LABEL = st.one_of(st.lists(PIECES, min_size=0, max_size=6).map("".join),
                  st.text("abcxyz019-", min_size=1, max_size=8),
                  st.integers(60, 66).map(lambda n: "a" * n),
                  st.integers(25, 34).map(lambda n: "\u00fc" * n))
DOT = st.sampled_from([".", ".", ".", "\u3002", "\uff0e", "\uff61"])


@st.composite
def domain(draw):
    labels = draw(st.lists(LABEL, min_size=1, max_size=4))
    if draw(st.integers(0, 7)) == 0:  # near the 253-octet limit
        labels = ["a" * 63] * 3 + ["a" * draw(st.integers(58, 63))]
    out = labels[0]
    for lab in labels[1:]:
        out += draw(DOT) + lab
    return out + draw(st.sampled_from(["", "", "", "."]))


def _domain_ops(d):
    ops = []
    for kw in ({}, {"uts46": True}, {"uts46": True, "transitional": True},
               {"uts46": True, "std3_rules": True}, {"strict": True}):
        ops.append({"call": "encode", "args": [d], "kwargs": kw})
    for kw in ({}, {"uts46": True}, {"uts46": True, "std3_rules": True}, {"strict": True}):
        ops.append({"call": "decode", "args": [d], "kwargs": kw})
    ops.append({"call": "uts46_remap", "args": [d]})
    ops.append({"call": "uts46_remap", "args": [d], "kwargs": {"std3_rules": False,
                                                             "transitional": True}})
    return {"ops": ops}


def _label_ops(lab):
    ops = [{"call": "alabel", "args": [lab]}, {"call": "ulabel", "args": [lab]},
           {"call": "check_label", "args": [lab]},
           {"call": "check_bidi", "args": [lab]},
           {"call": "check_bidi", "args": [lab], "kwargs": {"check_ltr": True}},
           {"call": "check_nfc", "args": [lab]}, {"call": "check_hyphen_ok", "args": [lab]},
           {"call": "check_initial_combiner", "args": [lab]}]
    for pos in range(min(len(lab), 8)):
        ops.append({"call": "valid_contextj", "args": [lab, pos]})
        ops.append({"call": "valid_contexto", "args": [lab, pos]})
    return {"ops": ops}


def targets():
    return [
        {"id": "domains", "examples": 150, "strategy": domain().map(_domain_ops)},
        {"id": "labels", "examples": 100, "strategy": LABEL.map(_label_ops)},
        {"id": "round-trip", "examples": 60, "strategy": domain().map(lambda d: {"ops": [
            {"call": "encode", "args": [d], "kwargs": {"uts46": True}, "as": "a"},
            {"call": "decode", "args": ["$a"]},
            {"call": "decode", "args": ["$a"], "kwargs": {"uts46": True}}]})},
    ]
