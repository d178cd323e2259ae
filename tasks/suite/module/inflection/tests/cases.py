"""Held-out cases and timing inputs for the inflection task (inflection 0.5.1)."""

import random

SINGULAR_WORDS = [
    "search", "switch", "fix", "box", "process", "address", "case", "stack", "wish",
    "category", "query", "ability", "agency", "movie", "archive", "index", "vertex",
    "matrix", "wife", "safe", "half", "move", "salesperson", "person", "spokesman",
    "man", "woman", "basis", "diagnosis", "datum", "medium", "analysis", "node_child",
    "child", "experience", "day", "comment", "foobar", "newsletter", "old_news", "news",
    "series", "species", "quiz", "perspective", "ox", "photo", "buffalo", "tomato",
    "potato", "dwarf", "elf", "information", "equipment", "criterion", "bus", "alias",
    "status", "octopus", "virus", "axis", "testis", "crisis", "mouse", "louse", "house",
    "passerby", "human", "sex", "cow", "zombie", "hive", "knife", "shoe", "horse",
    "edge", "database", "thesis", "synopsis", "prognosis", "parenthesis", "tax",
    "Person", "Cow", "PERSON", "COW", "Sheep", "Octopus", "CamelOctopus", "Category",
    "FISH", "jeans", "rice", "money", "prize", "key", "toy", "boy", "bay", "ray",
]

PLURAL_WORDS = [
    "searches", "switches", "fixes", "boxes", "processes", "addresses", "cases",
    "stacks", "wishes", "categories", "queries", "abilities", "agencies", "movies",
    "archives", "indices", "vertices", "matrices", "wives", "saves", "halves", "moves",
    "salespeople", "people", "spokesmen", "men", "women", "bases", "diagnoses", "data",
    "media", "analyses", "node_children", "children", "experiences", "days", "comments",
    "foobars", "newsletters", "old_news", "news", "series", "species", "quizzes",
    "perspectives", "oxen", "photos", "buffaloes", "tomatoes", "potatoes", "dwarves",
    "elves", "information", "equipment", "buses", "aliases", "statuses", "octopi",
    "viri", "axes", "testes", "crises", "mice", "lice", "houses", "passersby", "humans",
    "sexes", "kine", "Kine", "KINE", "zombies", "hives", "knives", "shoes", "horses",
    "edges", "databases", "theses", "synopses", "prognoses", "parentheses", "taxes",
    "People", "PEOPLE", "CamelOctopi", "Categories", "objectives", "tives", "fishes",
    "goldfish", "moneys", "prizes", "keys", "toys", "boys", "bays", "rays", "ss",
    "movies", "oxenfree", "Oxen", "bus", "alias", "status", "crisis", "octopus",
    "virus", "ox", "axis", "ax", "sheep",
]

CAMEL = [
    "Product", "SpecialGuest", "ApplicationController", "Area51Controller",
    "HTMLTidy", "HTMLTidyGenerator", "FreeBSD", "HTML", "IOError", "RawScaledScorer",
    "fancyCategory", "CamelCase", "ABCDefGhi", "a1B2c3", "Admin::User", "x-men",
    "already_under_scored", "", "URLs", "iPhone", "ÄpfelBaum",
]

UNDERSCORED = [
    "product", "special_guest", "application_controller", "area51_controller",
    "device_type", "_private_name", "trailing_", "a__b", "x", "abc_1d", "camel_case",
    "égalité_liberté", "__double", "with space_here", "new\nline",
]

HUMANIZE = [
    "employee_salary", "author_id", "underground", "_id", "employee_id_card",
    "ÉCOLE_du_Monde", "user_ID", "snake case here", "x_y_z", "", "123_abc",
    "straße_ÄRGER", "Kelvin\u212a_x", "\u0130stanbul_id",
]

TITLES = [
    "man from the boondocks", "x-men: the last stand", "TheManWithoutAPast",
    "raiders_of_the_lost_ark", "string_ending_with_id", "Employee's Salary",
    "it's a beautiful day", "o'neil's pub", "ALL CAPS TITLE", "the 2nd_place",
    "", "fünf_Äpfel", "author_id",
]

PARAMETERS = [
    "Donald E. Knuth", "Random text with *(bad)* characters", "Allow_Under_Scores",
    "Trailing bad characters!@#", "!@#Leading bad characters", "Squeeze   separators",
    "Test with + sign", "Test with malformed utf8 \u00a9", "Ærøskøbing älämölö",
    "--already--dashed--", "", "___", "café au lait",
]

TRANSLIT = ["älämölö", "Ærøskøbing", "plain", "", "ﬁancé", "Œuvre ½ ²", "日本語 text"]

ORDINALS = [0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 21, 22, 23, 24, 100, 101, 102, 103, 111,
            112, 113, 1002, 1003, 1011, -1, -11, -21, -1021, -112, "42", True, 3.7]


def _call(cid, covers, name, *args, **kwargs):
    case = {"id": cid, "covers": covers, "call": name, "args": list(args)}
    if kwargs:
        case["kwargs"] = kwargs
    return case


def cases():
    out = []
    for i, w in enumerate(SINGULAR_WORDS):
        out.append(_call(f"pluralize-{i}", ["pluralize"], "pluralize", w))
    for i, w in enumerate(PLURAL_WORDS):
        out.append(_call(f"singularize-{i}", ["singularize"], "singularize", w))
    for i, w in enumerate(SINGULAR_WORDS[:60]):
        out.append(_call(f"singularize-singular-{i}", ["singularize"], "singularize", w))
    for i, w in enumerate(PLURAL_WORDS[:40]):
        out.append(_call(f"pluralize-plural-{i}", ["pluralize"], "pluralize", w))
    for w in ["sheep", "FISH", "Equipment", "rice", "jeans", "money", "series", "species",
              "information"]:
        out.append(_call(f"pluralize-uncountable-{w}", ["uncountable"], "pluralize", w))
    for w in ["sheep", "goldfish", "Rice", "bluejeans", "old_money", "moneys"]:
        out.append(_call(f"singularize-uncountable-{w}", ["uncountable"], "singularize", w))
    for w in ["person", "Person", "salesperson", "man", "Man", "woman", "human", "child",
              "Child", "sex", "move", "cow", "Cow", "zombie", "Zombie", "people", "kine"]:
        out.append(_call(f"pluralize-irregular-{w}", ["irregular"], "pluralize", w))
    for w in ["people", "People", "salespeople", "men", "Men", "humans", "children",
              "sexes", "moves", "kine", "Kine", "zombies", "person", "cow"]:
        out.append(_call(f"singularize-irregular-{w}", ["irregular"], "singularize", w))
    out += [
        _call("pluralize-empty", ["empty"], "pluralize", ""),
        _call("singularize-empty", ["empty"], "singularize", ""),
        _call("pluralize-none", ["empty"], "pluralize", None),
        _call("pluralize-newline", ["pluralize"], "pluralize", "box\n"),
        _call("pluralize-newline-2", ["pluralize"], "pluralize", "day\n"),
        _call("singularize-newline", ["singularize"], "singularize", "boxes\n"),
        _call("pluralize-int", ["errors"], "pluralize", 5),
        _call("singularize-int", ["errors"], "singularize", 5),
        _call("camelize-empty-lower", ["errors"], "camelize", "", False),
        _call("ordinal-bad", ["errors"], "ordinal", "x"),
        _call("ordinal-none", ["errors"], "ordinal", None),
        _call("underscore-int", ["errors"], "underscore", 12),
        _call("parameterize-none", ["errors"], "parameterize", None),
    ]
    for i, w in enumerate(CAMEL):
        out.append(_call(f"underscore-{i}", ["underscore"], "underscore", w))
        out.append(_call(f"tableize-{i}", ["tableize"], "tableize", w))
    for i, w in enumerate(UNDERSCORED):
        out.append(_call(f"camelize-{i}", ["camelize"], "camelize", w))
        if w:
            out.append(_call(f"camelize-lower-{i}", ["camelize"], "camelize", w, False))
            out.append(_call(f"camelize-lower-kw-{i}", ["camelize"], "camelize", w,
                             uppercase_first_letter=False))
        out.append(_call(f"dasherize-{i}", ["dasherize"], "dasherize", w))
    for i, w in enumerate(HUMANIZE):
        out.append(_call(f"humanize-{i}", ["humanize"], "humanize", w))
    for i, w in enumerate(TITLES):
        out.append(_call(f"titleize-{i}", ["titleize"], "titleize", w))
    for i, w in enumerate(PARAMETERS):
        out.append(_call(f"parameterize-{i}", ["parameterize"], "parameterize", w))
        out.append(_call(f"parameterize-underscore-{i}", ["parameterize"], "parameterize",
                         w, "_"))
        out.append(_call(f"parameterize-empty-sep-{i}", ["parameterize"], "parameterize",
                         w, separator=""))
        out.append(_call(f"parameterize-long-sep-{i}", ["parameterize"], "parameterize",
                         w, "+."))
    for i, w in enumerate(TRANSLIT):
        out.append(_call(f"transliterate-{i}", ["transliterate"], "transliterate", w))
    for i, n in enumerate(ORDINALS):
        out.append(_call(f"ordinal-{i}", ["ordinal"], "ordinal", n))
        out.append(_call(f"ordinalize-{i}", ["ordinalize"], "ordinalize", n))
    out.append({"id": "constants", "covers": ["constants"], "ops": [
        {"get": "UNCOUNTABLES"},
        {"get": "__version__"}]})
    out.append({"id": "rule-tables-full", "covers": ["constants"], "ops": [
        {"get": "PLURALS"}, {"get": "SINGULARS"}]})
    out.append({"id": "rule-tables", "covers": ["constants"], "ops": [
        {"get": "PLURALS", "as": "p", "observe": False},
        {"get": "SINGULARS", "as": "s", "observe": False},
        {"op": "len", "args": ["$p"]}, {"op": "len", "args": ["$s"]},
        {"op": "[]", "args": ["$p", 0]}, {"op": "[]", "args": ["$s", -1]}]})
    # Random identifiers: pluralize/singularize/tableize round trips.
    rng = random.Random(7)
    for i in range(40):
        w = _identifier(rng, rng.randrange(1, 5))
        out.append(_call(f"random-plural-{i}", ["pluralize", "long"], "pluralize", w))
        out.append(_call(f"random-singular-{i}", ["singularize", "long"], "singularize",
                         w + rng.choice(["s", "es", "ies", "ves", "ses", "i", "ice", "en"])))
    for i in range(6):
        w = _identifier(rng, 60)
        out.append(_call(f"long-plural-{i}", ["pluralize", "long"], "pluralize", w))
        out.append(_call(f"long-singular-{i}", ["singularize", "long"], "singularize",
                         w + "es"))
    return out


_PARTS = ["annual", "report", "regional", "sales", "category", "box", "person", "child",
          "mouse", "matrix", "status", "quiz", "wife", "half", "ox", "analysis", "Data",
          "fish", "Sheep", "news", "series", "octopus", "bus", "hive", "tomato", "day"]


def _identifier(rng, words):
    return "_".join(rng.choice(_PARTS) for _ in range(words))


def timing_inputs():
    def plural(n):
        def one(seed):
            rng = random.Random(seed)
            return {"call": "pluralize", "args": [_identifier(rng, n)]}
        return one

    def singular(n):
        def one(seed):
            rng = random.Random(seed)
            return {"call": "singularize",
                    "args": [_identifier(rng, n) + rng.choice(["s", "ies", "es", "ves"])]}
        return one

    return [
        {"id": "plural40", "size": 40, "make": plural(40)},
        {"id": "singular40", "size": 40, "make": singular(40)},
        {"id": "singular160", "size": 160, "make": singular(160)},
    ]
