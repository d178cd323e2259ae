"""Held-out cases and timing inputs for the sqlglot package task.

Every statement of the corpus is tokenized, parsed (the expression tree is
observed through its repr) and transpiled from its dialect to every dialect,
once pretty-printed. Further cases cover parse errors and their levels,
unsupported output, dialect objects and the expression API (find, find_all,
walk, to_s).
Timing inputs transpile generated Hive scripts to Presto."""

import random

DIALECTS = [None, "duckdb", "hive", "mysql", "postgres", "presto", "spark", "sqlite"]

STATEMENTS = [
    # (sql, read dialect, behaviours)
    ("SELECT a, b FROM t", None, ["select"]),
    ("SELECT * FROM t", None, ["select"]),
    ("SELECT DISTINCT a FROM t AS x", None, ["select"]),
    ("SELECT a AS b, c d, t.e, db.t.f FROM db.t", None, ["select", "identifiers"]),
    ("SELECT 1, 1.5, -2, 'str', 'it''s', NULL, TRUE, FALSE FROM t", None, ["literals"]),
    ("SELECT \"quoted id\", \"a\"\"b\" FROM \"t\"", None, ["identifiers"]),
    ("SELECT `bt` FROM `db`.`tb`", "hive", ["identifiers"]),
    ("SELECT 'a\\'b' FROM t", "hive", ["literals"]),
    ("SELECT a FROM t WHERE a = 1 AND b <> 2 OR NOT c", None, ["operators"]),
    ("SELECT a FROM t WHERE a != 1 AND b >= 2 AND c <= 3 AND d > 4 AND e < 5", None, ["operators"]),
    ("SELECT a + b - c * d / e % f FROM t", None, ["operators"]),
    ("SELECT a & b, a | b, a ^ b, ~a, a << 2, a >> 1 FROM t", None, ["operators"]),
    ("SELECT -a, +b, (a + b) * c, a || b FROM t", None, ["operators"]),
    ("SELECT a FROM t WHERE a IS NULL AND b IS NOT NULL", None, ["operators"]),
    ("SELECT a FROM t WHERE a IN (1, 2, 3) AND b NOT IN ('x') AND c IN (SELECT d FROM u)", None, ["operators", "subqueries"]),
    ("SELECT a FROM t WHERE a BETWEEN 1 AND 10 AND b LIKE 'x%' AND c RLIKE 'y'", None, ["operators"]),
    ("SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u)", None, ["subqueries"]),
    ("SELECT CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END FROM t", None, ["functions"]),
    ("SELECT CASE a WHEN 1 THEN 'one' ELSE 'other' END FROM t", None, ["functions"]),
    ("SELECT CASE WHEN a THEN 1 END FROM t", None, ["functions"]),
    ("SELECT IF(a > 1, 'x', 'y'), IF(b, 1) FROM t", "hive", ["functions", "dialects"]),
    ("SELECT CAST(a AS INT), CAST(b AS VARCHAR), CAST(c AS DECIMAL(10, 2)), CAST(d AS TEXT) FROM t", None, ["types"]),
    ("SELECT CAST(a AS BOOLEAN), CAST(b AS DOUBLE), CAST(c AS FLOAT), CAST(d AS BIGINT), CAST(e AS SMALLINT), "
     "CAST(f AS TINYINT), CAST(g AS CHAR), CAST(h AS TIMESTAMP), CAST(i AS DATE), CAST(j AS JSON) FROM t", None, ["types"]),
    ("SELECT CAST(a AS ARRAY<INT>), CAST(b AS MAP<STRING, INT>) FROM t", "hive", ["types"]),
    ("SELECT CAST(a AS DECIMAL), CAST(b AS NUMERIC(5)), CAST(c AS STRING) FROM t", "spark", ["types"]),
    ("SELECT COUNT(*), COUNT(a), COUNT(DISTINCT a), SUM(b), AVG(c), MIN(d), MAX(e) FROM t", None, ["functions"]),
    ("SELECT COALESCE(a, b, 0), LOWER(s), UPPER(s), LENGTH(s), ABS(x), ROUND(x, 2), F(), G(1, 2, 3) FROM t", None, ["functions"]),
    ("SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY c DESC) AS rn FROM t", None, ["windows"]),
    ("SELECT SUM(a) OVER (ORDER BY b), RANK() OVER (PARTITION BY c, d), LAG(x) OVER () FROM t", None, ["windows"]),
    ("SELECT a FROM t ORDER BY a, b DESC, c ASC", None, ["clauses"]),
    ("SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1 ORDER BY a LIMIT 10", None, ["clauses"]),
    ("SELECT a FROM t LIMIT 5", "mysql", ["clauses"]),
    ("SELECT * FROM a JOIN b ON a.id = b.id LEFT JOIN c ON b.x = c.x RIGHT OUTER JOIN d ON d.y = a.y", None, ["joins"]),
    ("SELECT * FROM a INNER JOIN b ON a.id = b.id FULL OUTER JOIN c ON TRUE CROSS JOIN d", None, ["joins"]),
    ("SELECT * FROM a LEFT SEMI JOIN b ON a.k = b.k", "hive", ["joins"]),
    ("SELECT * FROM a, b WHERE a.id = b.id", None, ["joins"]),
    ("SELECT * FROM (SELECT a FROM t) AS s JOIN (SELECT b FROM u) v ON s.a = v.b", None, ["subqueries", "joins"]),
    ("SELECT * FROM (SELECT a FROM t)", None, ["subqueries"]),
    ("WITH x AS (SELECT 1 AS a), y AS (SELECT a FROM x) SELECT * FROM y", None, ["cte"]),
    ("WITH x AS (SELECT a FROM t) SELECT a FROM x UNION ALL SELECT b FROM u", None, ["cte", "set-operations"]),
    ("SELECT a FROM t UNION SELECT b FROM u", None, ["set-operations"]),
    ("SELECT a FROM t UNION ALL SELECT b FROM u UNION SELECT c FROM v", None, ["set-operations"]),
    ("SELECT x FROM t LATERAL VIEW EXPLODE(arr) tbl AS x", "hive", ["dialects", "lateral"]),
    ("SELECT x, y FROM t LATERAL VIEW OUTER EXPLODE(m) tbl AS x, y", "hive", ["lateral"]),
    ("SELECT * FROM UNNEST(ARRAY[1, 2]) AS t(x)", "presto", ["lateral"]),
    ("SELECT x FROM t CROSS JOIN UNNEST(arr) AS u(x)", "presto", ["lateral", "joins"]),
    ("SELECT a[1], b['key'], c.d.e FROM t", None, ["identifiers"]),
    ("SELECT ARRAY(1, 2, 3), ARRAY_CONTAINS(arr, 1), SIZE(arr), COLLECT_LIST(a) FROM t", "hive", ["dialects"]),
    ("SELECT ARRAY[1, 2], CARDINALITY(arr), CONTAINS(arr, 2), ARRAY_AGG(a), APPROX_DISTINCT(b) FROM t", "presto", ["dialects"]),
    ("SELECT APPROX_DISTINCT(a, 0.1) FROM t", "presto", ["dialects"]),
    ("SELECT APPROX_COUNT_DISTINCT(a) FROM t", "hive", ["dialects"]),
    ("SELECT DATE_ADD('2020-01-01', 5), DATE_SUB('2020-01-01', 2), DATEDIFF('2020-01-05', '2020-01-01') FROM t", "hive", ["dates"]),
    ("SELECT DATE_FORMAT(ts, 'yyyy-MM-dd'), FROM_UNIXTIME(u), FROM_UNIXTIME(u, 'yyyy'), UNIX_TIMESTAMP(s), "
     "UNIX_TIMESTAMP(s, 'yyyy-MM-dd'), TO_DATE(s) FROM t", "hive", ["dates"]),
    ("SELECT DATE_ADD('day', 1, d), DATE_DIFF('day', a, b), DATE_FORMAT(ts, '%Y-%m-%d'), DATE_PARSE(s, '%Y'), "
     "FROM_UNIXTIME(u), TO_UNIXTIME(ts) FROM t", "presto", ["dates"]),
    ("SELECT STRFTIME(ts, '%Y'), STRPTIME(s, '%Y-%m-%d'), EPOCH(ts), EPOCH_MS(ms), LIST_VALUE(1, 2), "
     "APPROX_COUNT_DISTINCT(a) FROM t", "duckdb", ["dates", "dialects"]),
    ("SELECT TO_TIMESTAMP(s, 'YYYY-MM-DD') FROM t", "postgres", ["dates", "dialects"]),
    ("SELECT TIME_STR_TO_DATE(s), TIME_STR_TO_TIME(s), TIME_STR_TO_UNIX(s), TIME_TO_STR(ts, '%Y'), "
     "TIME_TO_TIME_STR(ts), TIME_TO_UNIX(ts), TS_OR_DS_TO_DATE_STR(s), UNIX_TO_STR(u, '%Y'), UNIX_TO_TIME(u), "
     "UNIX_TO_TIME_STR(u), STR_TO_TIME(s, '%Y'), STR_TO_UNIX(s, '%Y'), DATE_STR_TO_DATE(s) FROM t", None, ["dates"]),
    ("SELECT STR_POSITION(s, 'a'), STR_POSITION(s, 'a', 2), LOCATE('a', s), LOCATE('a', s, 3), STRPOS(s, 'b') FROM t",
     None, ["dialects"]),
    ("SELECT INITCAP(s), JSON_PATH(j, '$.a'), GET_JSON_OBJECT(j, '$.b'), JSON_EXTRACT(j, '$.c'), "
     "REGEXP_LIKE(s, 'x') FROM t", None, ["dialects"]),
    ("SELECT ARRAY_SIZE(a), ARRAY_CONTAINS(a, 1), ARRAY_AGG(b), ARRAY(1), DECIMAL(5), NUMERIC(3) FROM t", None, ["functions"]),
    ("SELECT INTERVAL '1' DAY, INTERVAL 2 HOUR, d + INTERVAL '3' MONTH FROM t", None, ["literals"]),
    ("SELECT a FROM t WHERE b = 'x' -- trailing comment", None, ["comments"]),
    ("SELECT /* inline */ a FROM t", None, ["comments"]),
    ("SELECT /*+ BROADCAST(u) */ a FROM t JOIN u ON t.id = u.id", "spark", ["comments"]),
    ("CREATE TABLE t (a INT, b VARCHAR(10), c DECIMAL(5, 2))", None, ["ddl"]),
    ("CREATE TABLE IF NOT EXISTS db.t AS SELECT a FROM u", None, ["ddl"]),
    ("CREATE TABLE t STORED AS PARQUET AS SELECT 1", "hive", ["ddl"]),
    ("CREATE TEMPORARY VIEW v AS SELECT a FROM t", None, ["ddl"]),
    ("CREATE VIEW v AS SELECT a FROM t", None, ["ddl"]),
    ("DROP TABLE t", None, ["ddl"]),
    ("DROP TABLE IF EXISTS db.t", None, ["ddl"]),
    ("DROP VIEW IF EXISTS v", None, ["ddl"]),
    ("INSERT OVERWRITE TABLE t SELECT * FROM u", "hive", ["ddl"]),
    ("SELECT a FROM t; SELECT b FROM u;", None, ["select", "statements"]),
    ("", None, ["statements"]),
    (";", None, ["statements"]),
    ("SELECT 1;;SELECT 2", None, ["statements"]),
    ("SELECT COUNT(DISTINCT a, b) FROM t", None, ["functions"]),
    ("SELECT a FROM t WHERE a = (SELECT MAX(b) FROM u)", None, ["subqueries"]),
    ("SELECT t.* FROM t", None, ["identifiers"]),
    ("SELECT a AS \"B\" FROM t AS \"T\"", "postgres", ["identifiers"]),
    ("SELECT 1e10, .5, 0.5e-3 FROM t", None, ["literals"]),
    ("SELECT a DIV b, 7 DIV 2 FROM t", "hive", ["operators"]),
    ("SELECT a.b.c.d, x.y FROM t", None, ["identifiers"]),
    ("SELECT a[1].b, m['k'].c.d, F(x).y FROM t", None, ["identifiers"]),
    ("SELECT SUM(a) OVER (PARTITION BY b ORDER BY c ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), "
     "AVG(a) OVER (ORDER BY c RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING) FROM t", None, ["windows"]),
    ("SELECT a FROM t WHERE x = 'O''Reilly'", "mysql", ["literals"]),
]

INVALID = [
    "SELECT", "SELECT a FROM", "SELECT a FROM t WHERE", "SELECT (a", "SELECT a FROM t JOIN",
    "SELECT CASE WHEN a THEN 1", "SELECT CAST(a AS)", "SELECT a FROM t ORDER", "CREATE TABLE",
    "SELECT 'unterminated", "SELECT a b c FROM t", "SELECT * FROM t LIMIT", "DROP", "SELECT a,",
    "SELECT COUNT(", "WITH x AS SELECT 1", "SELECT a FROM t GROUP BY", "SELECT [1, 2]",
    "INSERT INTO t VALUES (1)", "SELECT a FROM t UNION", "SELECT f(a,", "SELECT x OVER",
]


# Each expression class and its required arguments (arg_types).
REQUIRED = {
    'Expression': ['this'], 'Create': ['this', 'kind'], 'CTE': ['this', 'expressions'],
    'Column': ['this'], 'Comment': ['this', 'comment'], 'Drop': [], 'FileFormat': ['this'],
    'From': ['expressions'], 'Having': ['this'], 'Hint': ['this'], 'Group': ['expressions'],
    'Limit': ['this'], 'Join': ['this', 'on'], 'Lateral': ['this'], 'Order': ['expressions'],
    'Ordered': ['this'], 'Table': ['this'], 'Union': ['this', 'expression', 'distinct'],
    'Unnest': ['expressions'], 'Select': ['expressions'], 'Window': ['this'], 'WindowSpec': [],
    'Where': ['this'], 'Binary': ['this', 'expression'], 'And': ['this', 'expression'],
    'BitwiseAnd': ['this', 'expression'], 'BitwiseLeftShift': ['this', 'expression'],
    'BitwiseOr': ['this', 'expression'], 'BitwiseRightShift': ['this', 'expression'],
    'BitwiseXor': ['this', 'expression'], 'Minus': ['this', 'expression'],
    'Div': ['this', 'expression'], 'Dot': ['this', 'expression'], 'DPipe': ['this', 'expression'],
    'EQ': ['this', 'expression'], 'GT': ['this', 'expression'], 'GTE': ['this', 'expression'],
    'Is': ['this', 'expression'], 'Like': ['this', 'expression'], 'LT': ['this', 'expression'],
    'LTE': ['this', 'expression'], 'Mod': ['this', 'expression'], 'NEQ': ['this', 'expression'],
    'Or': ['this', 'expression'], 'Plus': ['this', 'expression'], 'Star': ['this', 'expression'],
    'Slash': ['this', 'expression'], 'Unary': ['this'], 'BitwiseNot': ['this'], 'Not': ['this'],
    'Paren': ['this'], 'Neg': ['this'], 'Alias': ['this', 'alias'],
    'Between': ['this', 'low', 'high'], 'Bracket': ['this', 'expressions'], 'Case': ['ifs'],
    'Cast': ['this', 'to'], 'Decimal': [], 'In': ['this', 'expressions'],
    'Interval': ['this', 'unit'], 'Func': ['this'], 'Anonymous': ['this', 'expressions'],
    'ApproxDistinct': ['this'], 'Array': ['expressions'], 'ArrayAgg': ['this'],
    'ArrayContains': ['this', 'expression'], 'ArraySize': ['this'], 'Count': [],
    'DateAdd': ['this', 'expression'], 'DateDiff': ['this', 'expression'],
    'DateStrToDate': ['this'], 'If': ['this', 'true'], 'Initcap': ['this'],
    'JSONPath': ['this', 'path'], 'Map': ['keys', 'values'], 'RegexLike': ['this', 'expression'],
    'StrPosition': ['this', 'substr'], 'StrToTime': ['this', 'format'],
    'StrToUnix': ['this', 'format'], 'TimeToStr': ['this', 'format'], 'TimeToTimeStr': ['this'],
    'TimeToUnix': ['this'], 'TimeStrToDate': ['this'], 'TimeStrToTime': ['this'],
    'TimeStrToUnix': ['this'], 'TsOrDsToDateStr': ['this'], 'UnixToStr': ['this', 'format'],
    'UnixToTime': ['this'], 'UnixToTimeStr': ['this'],
}


def _statement_ops(sql, read):
    ops = [{"call": "Tokenizer", "as": "tk", "observe": False},
           {"call": "$tk.tokenize", "args": [sql]},
           {"call": "parse", "args": [sql], "kwargs": {"read": read}}]
    for write in DIALECTS:
        ops.append({"call": "transpile", "args": [sql],
                    "kwargs": {"read": read, "write": write, "unsupported_level": "$ignore"}})
    ops.append({"call": "transpile", "args": [sql],
                "kwargs": {"read": read, "pretty": True, "unsupported_level": "$ignore"}})
    ops.append({"call": "transpile", "args": [sql],
                "kwargs": {"read": read, "write": "presto", "identify": True, "pretty": True,
                           "unsupported_level": "$ignore"}})
    return ops


def _levels():
    return [{"get": "errors.ErrorLevel.IGNORE", "as": "ignore", "observe": False},
            {"get": "errors.ErrorLevel.WARN", "as": "warn", "observe": False},
            {"get": "errors.ErrorLevel.RAISE", "as": "raise", "observe": False}]


def cases():
    out = []
    for k, (sql, read, covers) in enumerate(STATEMENTS):
        out.append({"id": f"stmt-{k:03d}", "covers": ["tokenize", "parse", "transpile", *covers],
                    "ops": [*_levels(), *_statement_ops(sql, read)]})
    for k, sql in enumerate(INVALID):
        out.append({"id": f"invalid-{k:02d}", "covers": ["errors"], "ops": [
            *_levels(),
            {"call": "parse", "args": [sql]},
            {"call": "parse", "args": [sql], "kwargs": {"error_level": "$ignore"}},
            {"call": "transpile", "args": [sql], "kwargs": {"error_level": "$warn",
                                                          "unsupported_level": "$ignore"}},
            {"call": "Tokenizer", "as": "tk", "observe": False},
            {"call": "$tk.tokenize", "args": [sql]}]})
    out.append({"id": "unsupported", "covers": ["errors", "dialects"], "ops": [
        *_levels(),
        {"call": "transpile", "args": ["SELECT a FROM t"], "kwargs": {"unsupported_level": "$raise"}},
        {"call": "transpile", "args": ["SELECT APPROX_DISTINCT(a, 0.1) FROM t"],
         "kwargs": {"read": "presto", "write": "hive", "unsupported_level": "$ignore"}},
        {"call": "transpile", "args": ["SELECT APPROX_DISTINCT(a, 0.1) FROM t"],
         "kwargs": {"read": "presto", "write": "hive"}},
        {"call": "transpile", "args": ["SELECT a FROM t"], "kwargs": {"write": "nosuch"}},
        {"call": "transpile", "args": ["SELECT a FROM t"], "kwargs": {"identity": False}},
        {"call": "transpile", "args": ["SELECT a FROM t"], "kwargs": {"read": "hive", "identity": False}},
        {"call": "transpile", "args": ["SELECT a FROM t"], "kwargs": {"pad": 4, "indent": 2, "pretty": True}}]})
    out.append({"id": "generator-options", "covers": ["transpile"], "ops": [
        *_levels(),
        {"call": "transpile", "args": ["SELECT a, 'x' FROM t WHERE b = 'y'"],
         "kwargs": {"identify": True, "identifier": "`", "quote": '"', "escape": "\\"}},
        {"call": "transpile", "args": ["SELECT 'it''s', a FROM t"], "kwargs": {"escape": "\\"}},
        {"call": "transpile", "args": ["SELECT a, b FROM t WHERE a = 1 AND (b = 2 OR c = 3) ORDER BY a"],
         "kwargs": {"pretty": True}}]})
    out.append({"id": "expression-api", "covers": ["expressions"], "ops": [
        {"call": "parse", "args": ["SELECT a, b + 1 AS c FROM t JOIN u ON t.x = u.y WHERE a > 1"], "as": "p",
         "observe": False},
        {"op": "[]", "args": ["$p", 0], "as": "e", "observe": False},
        {"get": "expressions.Column", "as": "Column", "observe": False},
        {"get": "expressions.Table", "as": "Table", "observe": False},
        {"call": "$e.find", "args": ["$Column"]},
        {"call": "$e.find", "args": ["$Table"]},
        {"call": "$e.find_all", "args": ["$Column"], "as": "g", "observe": False},
        {"op": "list", "args": ["$g"]},
        {"call": "$e.walk", "as": "w", "observe": False},
        {"op": "list", "args": ["$w"], "as": "wl", "observe": False},
        {"op": "len", "args": ["$wl"]},
        {"call": "$e.walk", "kwargs": {"bfs": False}, "as": "w2", "observe": False},
        {"op": "list", "args": ["$w2"], "as": "wl2", "observe": False},
        {"op": "len", "args": ["$wl2"]},
        {"call": "$e.to_s"},
        {"op": "repr", "args": ["$e"]},
        {"get": "$e.key"}, {"get": "$e.depth"}, {"get": "$e.parent"},
        {"call": "$e.find", "args": ["$Column"], "as": "col", "observe": False},
        {"get": "$col.depth"}, {"get": "$col.key"}, {"get": "$col.arg_key"},
        {"get": "$col.parent", "as": "cp", "observe": False}, {"get": "$cp.key"},
        {"call": "$col.to_s"}]})
    out.append({"id": "dialect-objects", "covers": ["transpile", "dialects"], "ops": [
        {"call": "Dialect", "as": "d", "observe": False},
        {"call": "$d.transpile", "args": ["SELECT a FROM t WHERE b = 1"]},
        {"call": "$d.parse", "args": ["SELECT x"]},
        {"call": "dialects.Hive", "as": "h", "observe": False},
        {"call": "$h.transpile", "args": ["SELECT IF(a, 1, 2), SIZE(x) FROM t"], "kwargs": {"pretty": True}},
        {"call": "dialects.Presto", "as": "pr", "observe": False},
        {"call": "$pr.transpile", "args": ["SELECT CARDINALITY(x) FROM t"]},
        {"call": "Dialect.get", "args": ["spark", None], "as": "sp", "observe": False},
        {"get": "$sp.__name__"},
        {"call": "Dialect.get", "args": ["nosuch", None]}]})
    for name, keys in REQUIRED.items():
        out.append({"id": "expression-" + name.lower(), "covers": ["expressions"], "ops": [
            {"call": "expressions." + name},
            {"call": "expressions." + name, "kwargs": {k: 1 for k in keys}, "as": "x", "observe": False},
            {"get": "$x.key"},
            {"call": "expressions." + name, "kwargs": {"nosuch": 1}}]})
    out.append({"id": "dialect-details", "covers": ["dialects", "tokenize"], "ops": [
        *_levels(),
        {"call": "transpile", "args": ["SELECT GET_JSON_OBJECT(j, '$.b'), CAST(a AS BINARY) FROM t"],
         "kwargs": {"read": "hive", "write": "presto", "unsupported_level": "$ignore"}},
        {"call": "transpile", "args": ["SELECT REGEXP_LIKE(s, 'x'), CAST(b AS BINARY) FROM t"],
         "kwargs": {"read": "presto", "write": "hive", "unsupported_level": "$ignore"}},
        {"call": "transpile", "args": ["SELECT x FROM UNNEST(arr) WITH ORDINALITY AS t(x, i)"],
         "kwargs": {"read": "presto", "write": "presto", "unsupported_level": "$ignore"}},
        {"call": "transpile", "args": ["SELECT x FROM t CROSS JOIN UNNEST(arr) WITH ORDINALITY AS u(x, i)"],
         "kwargs": {"read": "presto", "write": "hive", "unsupported_level": "$ignore"}},
        {"call": "Tokenizer", "as": "tk", "observe": False},
        {"call": "$tk.tokenize", "args": ["SELECT\ta,\t{b}\tFROM\tt"]},
        {"call": "Tokenizer", "kwargs": {"keywords": {"QUALIFY": "qualify-keyword"}}, "as": "tk2", "observe": False},
        {"call": "$tk2.tokenize", "args": ["SELECT a QUALIFY b"]}]})
    out.append({"id": "tokenizer-options", "covers": ["tokenize"], "ops": [
        {"call": "Tokenizer", "kwargs": {"identifier": "`", "quotes": ["'", '"'], "escape": "\\"}, "as": "tk",
         "observe": False},
        {"call": "$tk.tokenize", "args": ["SELECT `a b`, \"s\", 'x\\'y' FROM t -- c\n/* d */ WHERE x>=1"]},
        {"call": "Tokenizer", "as": "tk2", "observe": False},
        {"call": "$tk2.tokenize", "args": ["SELECT a\n  FROM t\r\nWHERE b <> 'c''d' AND e != 1.5e3 -- x"]},
        {"call": "$tk2.tokenize", "args": ["SELECT 1 /* unterminated"]},
        {"call": "$tk2.tokenize", "args": ["x::INT, a->b, a->>b, #, @, ?"]}]})
    out.append({"id": "big-script", "covers": ["transpile", "dialects"], "ops": [
        {"call": "transpile", "args": [script(random.Random(5), 6)], "kwargs": {"read": "hive", "write": "presto"}},
        {"call": "transpile", "args": [script(random.Random(6), 6)],
         "kwargs": {"read": "hive", "write": "duckdb", "pretty": True}}]})
    return out


# Generated Hive scripts for timing.
COLS = ["id", "name", "price", "qty", "created_at", "status", "owner_id", "total", "region", "ts"]
TABLES = ["orders", "customers", "items", "payments", "regions", "logs"]


def _expr(rng):
    c = rng.choice(COLS)
    r = rng.random()
    if r < 0.25:
        return f"{rng.choice('abc')}.{c}"
    if r < 0.4:
        return f"{rng.choice(['SUM', 'COUNT', 'MAX', 'COALESCE'])}({c})"
    if r < 0.5:
        return f"{c} * {rng.randrange(1, 100)} + {rng.randrange(10)}"
    if r < 0.57:
        return f"IF({c} > {rng.randrange(10)}, 'hi', 'lo')"
    if r < 0.64:
        return f"DATE_FORMAT({c}, 'yyyy-MM-dd')"
    if r < 0.7:
        return f"CASE WHEN {c} IS NULL THEN 0 ELSE {c} END"
    if r < 0.75:
        return f"CAST({c} AS BIGINT)"
    return c


def _cond(rng):
    c = rng.choice(COLS)
    r = rng.random()
    if r < 0.3:
        return f"{c} = {rng.randrange(1000)}"
    if r < 0.5:
        return f"{c} LIKE '%{rng.choice(COLS)}%'"
    if r < 0.65:
        return f"{c} IN ({', '.join(str(rng.randrange(50)) for _ in range(rng.randrange(1, 5)))})"
    if r < 0.8:
        return f"({c} > {rng.randrange(100)} OR {rng.choice(COLS)} IS NULL)"
    return f"{rng.choice('abc')}.{c} <> '{rng.choice(TABLES)}'"


def statement(rng):
    cols = ", ".join(_expr(rng) + (f" AS x{k}" if rng.random() < 0.4 else "")
                     for k in range(rng.randrange(2, 7)))
    s = f"SELECT {cols} FROM {rng.choice(TABLES)} AS a"
    if rng.random() < 0.5:
        s += f" LEFT JOIN {rng.choice(TABLES)} AS b ON a.id = b.{rng.choice(COLS)}"
    s += " WHERE " + " AND ".join(_cond(rng) for _ in range(rng.randrange(1, 4)))
    if rng.random() < 0.4:
        s += f" GROUP BY {rng.choice(COLS)} ORDER BY {rng.choice(COLS)} DESC LIMIT {rng.randrange(1, 100)}"
    return s


def script(rng, n):
    return ";\n".join(statement(rng) for _ in range(n))


def timing_inputs():
    def make(n):
        def one(seed):
            return {"call": "transpile", "args": [script(random.Random(seed), n)],
                    "kwargs": {"read": "hive", "write": "presto"}}
        return one

    return [
        {"id": "statements3", "size": 3, "make": make(3)},
        {"id": "statements15", "size": 15, "make": make(15)},
    ]
