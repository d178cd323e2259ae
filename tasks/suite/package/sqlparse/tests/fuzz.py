"""Differential fuzzing of the sqlparse task: generated SQL scripts.

Statements are drawn from a grammar of SQL: SELECT with DISTINCT, aliases,
qualified and quoted names, literals (strings with quotes and non-ASCII
text, numbers at their edges, NULL, booleans), operators, IN, BETWEEN,
LIKE, IS NULL, CASE, CAST, function calls, subqueries, joins, WHERE,
GROUP BY, HAVING, ORDER BY, LIMIT and UNION; INSERT, UPDATE, DELETE and
CREATE TABLE; with comments (line and block) and odd whitespace between
tokens, several to a script. Each script is split, parsed (each statement's
type, text and whole tree printed) and formatted under a drawn set of the
formatter's options, as the cases do. A second target breaks a script at one
place (quotes, brackets and comments left open)."""

from hypothesis import strategies as st

NAME = st.one_of(st.sampled_from(["a", "b", "c", "x", "id", "name", "ts", "total", "t", "u"]),
                 st.text("abcxyz_", min_size=1, max_size=5).filter(lambda s: s[0] != "_"))
QUOTED = st.one_of(NAME.map(lambda n: f'"{n}"'), st.sampled_from(['"a b"', '"a""b"', '"é"']))
COLUMN = st.one_of(NAME, NAME, QUOTED, st.tuples(NAME, NAME).map(".".join))
STRING = st.lists(st.sampled_from(["a", "b", " ", "''", "é", "日", "%", "_", "\\n"]),
                  max_size=5).map(lambda xs: "'" + "".join(xs) + "'")
NUMBER = st.one_of(st.integers(-10**6, 10**6).map(str),
                   st.sampled_from(["0", "1.5", ".5", "1e10", "1.5E-3", "2147483648",
                                    "9223372036854775808", "0.0", "-0.25"]))
LITERAL = st.one_of(STRING, NUMBER, st.sampled_from(["NULL", "TRUE", "FALSE"]))
FUNC = st.sampled_from(["COUNT", "SUM", "AVG", "MIN", "MAX", "COALESCE", "UPPER", "LOWER",
                        "LENGTH", "ABS", "ROUND", "IF", "CONCAT", "SUBSTR", "ARRAY",
                        "APPROX_DISTINCT", "STR_TO_TIME", "TIME_TO_STR", "DATE_ADD", "NOPE"])
TYPE = st.sampled_from(["INT", "BIGINT", "TEXT", "VARCHAR", "VARCHAR(10)", "DECIMAL(10, 2)",
                        "DOUBLE", "FLOAT", "BOOLEAN", "DATE", "TIMESTAMP", "JSON", "ARRAY<INT>",
                        "MAP<TEXT, INT>"])
TABLE = st.sampled_from(["t", "db.t", "t AS x", "t x", '"T"'])
BINARY = st.sampled_from(["+", "-", "*", "/", "%", "=", "<>", "!=", "<", "<=", ">", ">=",
                          "AND", "OR", "||", "&", "|", "^", "<<", ">>"])


def _expr(children):
    return st.one_of(
        st.tuples(children, BINARY, children).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        children.map(lambda e: f"({e})"),
        st.tuples(st.sampled_from(["NOT ", "-", "~"]), children).map("".join),
        st.tuples(FUNC, st.lists(children, max_size=3), st.booleans()).map(
            lambda t: f"{t[0]}({'DISTINCT ' if t[2] and t[1] else ''}{', '.join(t[1])})"),
        st.tuples(children, TYPE).map(lambda t: f"CAST({t[0]} AS {t[1]})"),
        st.tuples(children, st.lists(LITERAL, min_size=1, max_size=3), st.booleans()).map(
            lambda t: f"{t[0]} {'NOT ' if t[2] else ''}IN ({', '.join(t[1])})"),
        st.tuples(children, children, children).map(
            lambda t: f"{t[0]} BETWEEN {t[1]} AND {t[2]}"),
        st.tuples(children, STRING, st.sampled_from(["LIKE", "NOT LIKE", "ILIKE"])).map(
            lambda t: f"{t[0]} {t[2]} {t[1]}"),
        st.tuples(children, st.sampled_from(["IS NULL", "IS NOT NULL"])).map(" ".join),
        st.tuples(st.lists(st.tuples(children, children), min_size=1, max_size=2),
                  st.one_of(st.none(), children)).map(
            lambda t: "CASE " + " ".join(f"WHEN {w} THEN {v}" for w, v in t[0])
            + (f" ELSE {t[1]}" if t[1] is not None else "") + " END"),
    )


EXPR = st.recursive(st.one_of(COLUMN, LITERAL), _expr, max_leaves=6)


@st.composite
def select(draw, depth=0):
    items = draw(st.lists(st.tuples(st.one_of(EXPR, st.just("*")),
                                    st.sampled_from(["", " AS x", " y", " AS \"q r\""])),
                          min_size=1, max_size=4))
    sql = "SELECT " + ("DISTINCT " if draw(st.booleans()) else "") + \
        ", ".join(e + (alias if e != "*" else "") for e, alias in items)
    if draw(st.integers(0, 5)) > 0:
        if depth < 1 and draw(st.integers(0, 4)) == 0:
            sql += f" FROM ({draw(select(depth + 1))}) AS s"
        else:
            sql += " FROM " + draw(TABLE)
        for _ in range(draw(st.integers(0, 2))):
            kind = draw(st.sampled_from(["JOIN", "LEFT JOIN", "RIGHT OUTER JOIN", "INNER JOIN",
                                         "FULL JOIN", "CROSS JOIN"]))
            on = "" if kind == "CROSS JOIN" else f" ON {draw(EXPR)}"
            sql += f" {kind} {draw(NAME)}{on}"
        if draw(st.booleans()):
            sql += f" WHERE {draw(EXPR)}"
        if draw(st.integers(0, 3)) == 0:
            sql += " GROUP BY " + ", ".join(draw(st.lists(COLUMN, min_size=1, max_size=2)))
            if draw(st.booleans()):
                sql += f" HAVING {draw(EXPR)}"
        if draw(st.integers(0, 3)) == 0:
            sql += " ORDER BY " + ", ".join(
                c + draw(st.sampled_from(["", " ASC", " DESC", " NULLS FIRST"]))
                for c in draw(st.lists(COLUMN, min_size=1, max_size=2)))
        if draw(st.integers(0, 3)) == 0:
            sql += f" LIMIT {draw(st.integers(0, 100))}"
    if depth < 1 and draw(st.integers(0, 6)) == 0:
        sql += f" UNION{draw(st.sampled_from(['', ' ALL']))} {draw(select(depth + 1))}"
    return sql


@st.composite
def statement(draw):
    kind = draw(st.integers(0, 9))
    if kind <= 5:
        return draw(select())
    if kind == 6:
        cols = draw(st.lists(NAME, min_size=1, max_size=3, unique=True))
        rows = draw(st.lists(st.lists(LITERAL, min_size=len(cols), max_size=len(cols)),
                             min_size=1, max_size=2))
        values = ", ".join("(" + ", ".join(r) + ")" for r in rows)
        return f"INSERT INTO t ({', '.join(cols)}) VALUES {values}"
    if kind == 7:
        sets = draw(st.lists(st.tuples(NAME, EXPR), min_size=1, max_size=2))
        where = f" WHERE {draw(EXPR)}" if draw(st.booleans()) else ""
        return f"UPDATE t SET {', '.join(f'{c} = {e}' for c, e in sets)}{where}"
    if kind == 8:
        return f"DELETE FROM t WHERE {draw(EXPR)}"
    cols = draw(st.lists(st.tuples(NAME, TYPE), min_size=1, max_size=3, unique_by=lambda c: c[0]))
    return f"CREATE TABLE t ({', '.join(f'{c} {ty}' for c, ty in cols)})"



COMMENT = st.sampled_from(["", "", "", " -- note\n", " /* c */ ", " /* multi\nline */ ", "\n",
                           "\t", "  "])


@st.composite
def script(draw):
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        parts.append(draw(COMMENT) + draw(statement()) + draw(COMMENT))
    sep = draw(st.sampled_from([";", ";\n", "; ", ";\r\n"]))
    return sep.join(parts) + draw(st.sampled_from(["", ";", ";\n", "\n"]))


@st.composite
def broken(draw):
    sql = draw(script())
    at = draw(st.integers(0, len(sql)))
    how = draw(st.sampled_from(["cut", "insert", "drop"]))
    if how == "cut":
        return sql[:at]
    if how == "drop":
        return sql[:at] + sql[at + 1:]
    return sql[:at] + draw(st.sampled_from(["(", ")", ",", "'", '"', "/*", "--", "`", "[",
                                            "$$", ";", "\\"])) + sql[at:]


OPTIONS = st.fixed_dictionaries({}, optional={
    "reindent": st.booleans(), "reindent_aligned": st.booleans(),
    "keyword_case": st.sampled_from(["upper", "lower", "capitalize"]),
    "identifier_case": st.sampled_from(["upper", "lower", "capitalize"]),
    "strip_comments": st.booleans(), "strip_whitespace": st.booleans(),
    "use_space_around_operators": st.booleans(), "indent_tabs": st.booleans(),
    "indent_width": st.integers(1, 8), "indent_after_first": st.booleans(),
    "indent_columns": st.booleans(), "wrap_after": st.integers(0, 60),
    "comma_first": st.booleans(), "compact": st.booleans(),
    "truncate_strings": st.integers(2, 12), "right_margin": st.integers(10, 80),
    "output_format": st.sampled_from(["sql", "python", "php"])})


def _script_ops(sql, options):
    ops = [{"call": "split", "args": [sql]},
           {"call": "split", "args": [sql], "kwargs": {"strip_semicolon": True}},
           {"call": "parse", "args": [sql], "as": "p", "observe": False},
           {"op": "len", "args": ["$p"]}]
    for k in range(sql.count(";") + 1):
        ops += [{"op": "[]", "args": ["$p", k], "as": "s", "observe": False},
                {"call": "$s.get_type"}, {"op": "str", "args": ["$s"]},
                {"call": "$s._pprint_tree"}]
    ops += [{"call": "format", "args": [sql]},
            {"call": "format", "args": [sql], "kwargs": options},
            {"call": "format", "args": [sql], "kwargs": {"reindent": True,
                                                        "keyword_case": "upper"}}]
    return {"ops": ops}


def targets():
    return [
        {"id": "scripts", "examples": 80,
         "strategy": st.builds(_script_ops, script(), OPTIONS)},
        {"id": "broken-scripts", "examples": 50,
         "strategy": st.builds(_script_ops, broken(), OPTIONS)},
    ]
