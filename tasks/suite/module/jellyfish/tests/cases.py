"""Held-out cases and timing inputs for the jellyfish task (jellyfish 0.8.2, pure Python)."""

import random

PAIRS = [
    ("", ""), ("", "abc"), ("abc", ""), ("abc", "abc"), ("kitten", "sitting"),
    ("saturday", "sunday"), ("flaw", "lawn"), ("ca", "abc"), ("abcdef", "badcfe"),
    ("martha", "marhta"), ("dwayne", "duane"), ("dixon", "dicksonx"), ("a", "b"),
    ("a", "a"), ("ab", "ba"), ("abc", "ca"), ("jellyfish", "smellyfish"),
    ("crate", "trace"), ("dicksonx", "dixon"), ("MARTHA", "martha"),
    ("naïve café", "naive cafe"), ("日本語", "日本人"), ("straße", "strasse"),
    ("a cat", "an act"), ("abcd", "dcba"), ("transpose", "tarnspose"), ("x", ""),
    ("aaaa", "aaab"), ("hello world", "hallo welt"), ("ab", "aba"), ("1234", "1243"),
    ("shackleford", "shackelford"), ("dunningham", "cunnigham"), ("nichleson", "nichulson"),
    ("jones", "johnson"), ("massey", "massie"), ("abroms", "abrams"), ("hardin", "martinez"),
    ("itman", "smith"), ("jeraldine", "geraldine"), ("marhta", "martha"),
    ("michelle", "michael"), ("julies", "julius"), ("tanya", "tonya"),
    ("dwayne", "dwayne"), ("sean", "susan"), ("jon", "john"), ("jon", "jan"),
    ("brookhaven", "brook hallow"), ("brook hallow", "brooklyn"), ("washington", "washingtn"),
    ("cunningham", "cunnigham"), ("frederick", "fredrick"), ("abcdefghij", "abcdefghik"),
    ("abcdefghijklmnop", "abcdefghijxlmnopq"), ("thequickbrownfox", "thequickbrownfix"),
    ("abcde", "abcdefghijklmnop"), ("aaaaaaaaaaab", "baaaaaaaaaaa"),
]

WORDS = [
    "Robert", "Rupert", "Rubin", "Ashcraft", "Ashcroft", "Tymczak", "Pfister", "Honeyman",
    "Lee", "Gutierrez", "Jackson", "Washington", "Van Deusen", "O'Hara", "", "A", "H",
    "W", "Schmidt", "Schwarzenegger", "Knight", "Knuth", "Gnome", "Pneumonia", "Wright",
    "Aeon", "Thumb", "Dumb", "Cherry", "Ciao", "Science", "Cyan", "Edge", "Badge", "Dig",
    "Ghost", "Night", "Sign", "Gnaw", "Hugh", "Ahead", "Bahn", "Acknowledge", "Phone",
    "Queen", "Sharp", "Mission", "Asia", "Nation", "Thomas", "Match", "Catch", "Vivid",
    "Whale", "Wow", "Swan", "Xavier", "Xhosa", "Xiong", "Box", "Yes", "Yyz", "Zebra",
    "Mac Donald", "MacDonald", "Knuth", "Kelly", "Phillips", "Pfeiffer", "Schultz",
    "Maggie", "Sweet", "Bernard", "Burnt", "Hurd", "Grant", "Bland", "Evan", "Quincy",
    "Ezra", "Mims", "Kaiser", "Jakob", "Sachs", "Ralph", "Ahearn", "Brahms", "Sarah",
    "Awe", "Stewart", "Hays", "Kaye", "Olga", "Tessa", "Asa", "Ss", "Zz", "cch", "ACCENT",
    "Ärger", "Éclair", "naïve", "Çelik", "x y  z", "  lead", "trail  ", "H W", "Ohh",
    "Bbbb", "Mcc", "Sch", "Pf", "Ph", "KN", "Ki", "Ie", "Ee", "Dt", "Rd", "Nt", "Nd",
    "Ev", "Evv", "Kn", "Skn", "Sph", "Ah", "Ha", "Aha", "Aw", "Wa", "Tchad", "Tia",
    "Tio", "Sio", "Sia", "Shh", "Dge", "Dga", "Gha", "Ghb", "Gn", "Gne", "Gi", "Ck",
    "Mb", "Mbe", "Cia", "Cie", "Chi", "Aardvark", "ABBA", "Wh", "Whb", "Xi", "Xio",
    "Yo", "Qu", "Lloyd", "Biggs", "Mississippi", "Buffalo", "Tsunami", "hello world",
    "Dev", "Bev", "Stev", "Devon", "Bosche", "Mascher", "Tasch", "a\U0001d417b",
    "aw\U0001d417", "\U0001d417", "\u2169x",
]


def _call(cid, covers, name, *args, **kwargs):
    case = {"id": cid, "covers": covers, "call": name, "args": list(args)}
    if kwargs:
        case["kwargs"] = kwargs
    return case


def _rand(rng, n, alphabet="abcdeghilmnorst"):
    return "".join(rng.choice(alphabet) for _ in range(n))


def _mutated(rng, s, edits):
    s = list(s)
    for _ in range(edits):
        k = rng.randrange(4)
        p = rng.randrange(len(s) + 1)
        if k == 0:
            s.insert(p, rng.choice("abcdexyz"))
        elif k == 1 and p < len(s):
            del s[p]
        elif k == 2 and p < len(s):
            s[p] = rng.choice("abcdexyz")
        elif p + 1 < len(s):
            s[p], s[p + 1] = s[p + 1], s[p]
    return "".join(s)


def cases():
    out = []
    for i, (a, b) in enumerate(PAIRS):
        out.append(_call(f"lev-{i}", ["levenshtein"], "levenshtein_distance", a, b))
        out.append(_call(f"dl-{i}", ["damerau"], "damerau_levenshtein_distance", a, b))
        out.append(_call(f"jaro-{i}", ["jaro"], "jaro_similarity", a, b))
        out.append(_call(f"jw-{i}", ["jaro-winkler"], "jaro_winkler_similarity", a, b))
        out.append(_call(f"jwl-{i}", ["jaro-winkler"], "jaro_winkler_similarity", a, b,
                         True))
        out.append(_call(f"jwlk-{i}", ["jaro-winkler"], "jaro_winkler_similarity", a, b,
                         long_tolerance=True))
        out.append(_call(f"ham-{i}", ["hamming"], "hamming_distance", a, b))
        out.append(_call(f"mrc-{i}", ["match-rating"], "match_rating_comparison", a, b))
    for i, w in enumerate(WORDS):
        out.append(_call(f"soundex-{i}", ["soundex"], "soundex", w))
        out.append(_call(f"nysiis-{i}", ["nysiis"], "nysiis", w))
        out.append(_call(f"metaphone-{i}", ["metaphone"], "metaphone", w))
        out.append(_call(f"metaphone-lower-{i}", ["metaphone"], "metaphone", w.lower()))
        out.append(_call(f"mrcodex-{i}", ["match-rating"], "match_rating_codex", w))
        out.append(_call(f"nysiis-upper-{i}", ["nysiis"], "nysiis", w.upper()))
    for i, (a, b) in enumerate(zip(WORDS, WORDS[1:])):
        out.append(_call(f"mrc-words-{i}", ["match-rating"], "match_rating_comparison", a, b))
        out.append(_call(f"jw-words-{i}", ["jaro-winkler"], "jaro_winkler_similarity", a, b,
                         True))
    bad = [None, 5, 2.5, b"bytes", ["a"]]
    for i, v in enumerate(bad):
        for name in ("levenshtein_distance", "damerau_levenshtein_distance",
                     "jaro_similarity", "jaro_winkler_similarity", "hamming_distance"):
            out.append(_call(f"type-{name}-{i}", ["type-errors"], name, v, "abc"))
            out.append(_call(f"type2-{name}-{i}", ["type-errors"], name, "abc", v))
        for name in ("soundex", "nysiis", "metaphone", "match_rating_codex"):
            out.append(_call(f"type-{name}-{i}", ["type-errors"], name, v))
        out.append(_call(f"type-mrc-{i}", ["type-errors"], "match_rating_comparison",
                         "abc", v))
    out.append(_call("type-sub", ["type-errors"], "levenshtein_distance", "a", 1))
    out.append({"id": "normalize", "covers": ["helpers"], "call": "_normalize",
                "args": ["Ångström ﬁ ½"]})
    rng = random.Random(11)
    for i in range(60):
        a = _rand(rng, rng.randrange(0, 25), "abcde" if i % 2 else "abcdefghijklmnop")
        b = _mutated(rng, a, rng.randrange(0, 6)) if i % 3 else _rand(rng, rng.randrange(25))
        out.append(_call(f"rlev-{i}", ["levenshtein", "random"], "levenshtein_distance", a, b))
        out.append(_call(f"rdl-{i}", ["damerau", "random"], "damerau_levenshtein_distance",
                         a, b))
        out.append(_call(f"rjw-{i}", ["jaro-winkler", "random"], "jaro_winkler_similarity",
                         a, b, i % 2 == 0))
        out.append(_call(f"rjaro-{i}", ["jaro", "random"], "jaro_similarity", a, b))
        out.append(_call(f"rham-{i}", ["hamming", "random"], "hamming_distance", a, b))
    for i in range(8):
        a = _rand(rng, 90 + 10 * i)
        b = _mutated(rng, a, 5 + 3 * i)
        out.append(_call(f"long-lev-{i}", ["levenshtein", "random"], "levenshtein_distance",
                         a, b))
        out.append(_call(f"long-dl-{i}", ["damerau", "random"],
                         "damerau_levenshtein_distance", a, b))
        out.append(_call(f"long-jw-{i}", ["jaro-winkler", "random"],
                         "jaro_winkler_similarity", a, b, True))
    # Random words over phonetically busy alphabets for the phonetic codes.
    alphabets = ["AEIOUBCDFGHKLMNPQRSTVWXYZ ", "aeioubcdfghklmnpqrstvwxyz ",
                 "MACKNPHSCHIEDTEVWRG", "mbcghkstpwxyaeio n"]
    for i in range(240):
        al = alphabets[i % 4]
        w = "".join(rng.choice(al) for _ in range(rng.randrange(1, 12)))
        out.append(_call(f"rsoundex-{i}", ["soundex", "random"], "soundex", w))
        out.append(_call(f"rnysiis-{i}", ["nysiis", "random"], "nysiis", w.upper()))
        out.append(_call(f"rmetaphone-{i}", ["metaphone", "random"], "metaphone", w))
        out.append(_call(f"rmrcodex-{i}", ["match-rating", "random"], "match_rating_codex", w))
        v = "".join(rng.choice(al) for _ in range(rng.randrange(1, 12)))
        out.append(_call(f"rmrc-{i}", ["match-rating", "random"], "match_rating_comparison",
                         w, v))
    return out


def timing_inputs():
    def pair(name, n, alphabet, *extra):
        def one(seed):
            rng = random.Random(seed)
            a = _rand(rng, n, alphabet)
            b = _mutated(rng, a, n // 4)
            return {"call": name, "args": [a, b, *extra]}
        return one

    return [
        {"id": "lev60", "size": 60, "make": pair("levenshtein_distance", 60, "abcdefghijklmnop")},
        {"id": "lev150", "size": 150,
         "make": pair("levenshtein_distance", 150, "abcdefghijklmnop")},
        {"id": "damerau70", "size": 70,
         "make": pair("damerau_levenshtein_distance", 70, "abcdefghijklmnop")},
        {"id": "jw400", "size": 400,
         "make": pair("jaro_winkler_similarity", 400, "abcdefghijklmnopqrstuvwxyz", True)},
    ]
