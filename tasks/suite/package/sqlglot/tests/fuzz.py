"""Differential fuzzing of the sqlglot task: generated SQL statements.

Statements are drawn from a grammar of the SQL sqlglot 1.0 reads: SELECT
with DISTINCT, aliases, qualified and quoted names, literals (strings with
quotes and non-ASCII text, numbers at their edges, NULL, booleans),
arithmetic, comparison, logical and bitwise operators, IN, BETWEEN, LIKE,
IS NULL, CASE, CAST, function calls and aggregates, subqueries, joins,
WHERE, GROUP BY, HAVING, ORDER BY, LIMIT and UNION; INSERT, UPDATE, DELETE
and CREATE TABLE. Each is tokenized, parsed and transpiled from a drawn
dialect to every dialect (once pretty-printed), as the cases do. A second
target breaks a statement at one place, so parse errors and the error
levels are compared too."""

from hypothesis import strategies as st

DIALECTS = [None, "duckdb", "hive", "mysql", "postgres", "presto", "spark", "sqlite"]
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


@st.composite
def broken(draw):
    sql = draw(statement())
    at = draw(st.integers(0, len(sql)))
    how = draw(st.sampled_from(["cut", "insert", "drop"]))
    if how == "cut":
        return sql[:at]
    if how == "drop":
        return sql[:at] + sql[at + 1:]
    return sql[:at] + draw(st.sampled_from(["(", ")", ",", "'", '"', " SELECT ", " FROM ",
                                            "*", ".", ";", "`"])) + sql[at:]


def _statement_ops(pair):
    sql, read = pair
    ops = [{"call": "Tokenizer", "as": "tk", "observe": False},
           {"call": "$tk.tokenize", "args": [sql]},
           {"call": "parse", "args": [sql], "kwargs": {"read": read}}]
    for write in DIALECTS:
        ops.append({"call": "transpile", "args": [sql],
                    "kwargs": {"read": read, "write": write, "unsupported_level": "$ignore"}})
    ops.append({"call": "transpile", "args": [sql],
                "kwargs": {"read": read, "pretty": True, "unsupported_level": "$ignore"}})
    return {"ops": [{"get": "errors.ErrorLevel.IGNORE", "as": "ignore", "observe": False},
                    *ops]}


def _error_ops(sql):
    return {"ops": [{"get": "errors.ErrorLevel.IGNORE", "as": "ignore", "observe": False},
                    {"get": "errors.ErrorLevel.WARN", "as": "warn", "observe": False},
                    {"call": "parse", "args": [sql]},
                    {"call": "parse", "args": [sql], "kwargs": {"error_level": "$ignore"}},
                    {"call": "transpile", "args": [sql], "kwargs": {"error_level": "$warn",
                                                                   "unsupported_level": "$ignore"}},
                    {"call": "Tokenizer", "as": "tk", "observe": False},
                    {"call": "$tk.tokenize", "args": [sql]}]}


def targets():
    return [
        {"id": "statements", "examples": 100,
         "strategy": st.tuples(statement(), st.sampled_from(DIALECTS)).map(_statement_ops)},
        {"id": "broken-statements", "examples": 60, "strategy": broken().map(_error_ops)},
    ]
