"""Held-out cases and timing inputs for the sqlparse package task.

Every statement of the corpus is parsed (its whole tree printed by
_pprint_tree, its type, and the names, aliases and parts of its top-level
tokens), split and formatted with several option sets. Further cases call
the formatter's option checks, the lexer, the token types, the output
filters and the command line. Timing inputs format and parse generated
scripts of several sizes."""

import random

STATEMENTS = {
    # queries
    "select-simple": ("SELECT a, b FROM t WHERE a = 1", ["parse", "identifiers"]),
    "select-alias": ("select t.a as x, b y, c.d.e, count(*) n from schema1.tab t", ["identifiers"]),
    "select-star": ("SELECT t.*, * FROM t", ["identifiers"]),
    "select-cast": ("SELECT a::int, b::varchar(10) AS bb, CAST(c AS text) FROM t", ["identifiers"]),
    "select-order": ("SELECT a FROM t ORDER BY a DESC, b ASC NULLS LAST, c", ["identifiers"]),
    "select-array": ("SELECT col[1], col[1][2] AS x, arr[i:j] FROM t", ["identifiers"]),
    "select-join": ("SELECT * FROM a LEFT OUTER JOIN b ON a.id = b.id INNER JOIN c USING (id) "
                    "CROSS JOIN d NATURAL JOIN e FULL JOIN f ON f.x > a.y", ["parse", "format"]),
    "select-where": ("SELECT x FROM t WHERE a > 1 AND (b < 2 OR c <> 3) AND d IS NOT NULL "
                     "AND e BETWEEN 1 AND 5 AND f LIKE 'a%' AND g NOT ILIKE '%b' AND h IN (1, 2, 3)",
                     ["parse", "format"]),
    "select-group": ("SELECT a, SUM(b) total FROM t GROUP BY a HAVING SUM(b) > 10 LIMIT 5 OFFSET 2",
                     ["parse", "format"]),
    "select-sub": ("SELECT * FROM (SELECT a FROM t) AS sub WHERE x IN (SELECT y FROM u)",
                   ["parse", "format"]),
    "select-union": ("SELECT a FROM t UNION ALL SELECT b FROM u UNION SELECT c FROM v", ["parse"]),
    "select-case": ("SELECT CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero' END AS sign, "
                    "CASE b WHEN 1 THEN 'one' END FROM t", ["parse", "functions"]),
    "select-window": ("SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) AS rn, "
                      "SUM(x) OVER w FROM t WINDOW w AS (PARTITION BY c)", ["functions"]),
    "select-func": ("SELECT coalesce(a, b, 'x'), upper(lower(name)), now(), f(g(1), 2) AS z FROM t",
                    ["functions"]),
    "select-ops": ("SELECT a + b * 2 - c / 4 % 3, -x, a || b, 5 & 3 | 1 FROM t WHERE a >= 1 AND b != 2",
                   ["parse", "format"]),
    "select-cte": ("WITH x AS (SELECT 1 AS a), y AS (SELECT a FROM x) SELECT * FROM y", ["types"]),
    "select-cte-insert": ("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", ["types"]),
    "select-literals": ("SELECT 1, 1.5, .5, 1e10, 1.5E-3, 0xFF, -2, 'str''q', \"quoted id\", `bt`, "
                        "N'nat', E'\\n', $$dollar$$, $tag$body$tag$ FROM t", ["lexer"]),
    "select-typed": ("SELECT DATE '2020-01-01', TIMESTAMP '2020-01-01 10:00', INTERVAL '1 day', "
                     "INTERVAL '2' HOUR FROM t WHERE d > DATE '2019-12-31' + INTERVAL '3' DAY", ["parse"]),
    "select-placeholders": ("SELECT * FROM t WHERE a = ? AND b = :name AND c = %s AND d = %(key)s "
                            "AND e = $1 AND f = @var", ["lexer"]),
    "select-json": ("SELECT data->'a', data->>'b', data#>'{c}', data @> '{}' FROM t", ["lexer"]),
    "select-tz": ("SELECT ts AT TIME ZONE 'UTC' FROM t", ["lexer"]),
    "select-brackets": ("SELECT [col name], [t].[c] FROM [my table]", ["lexer", "identifiers"]),
    "select-distinct": ("SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC", ["parse"]),
    "select-comments": ("SELECT a, -- first\n b /* second */, c # third\nFROM t -- end\n", ["comments"]),
    "select-hints": ("SELECT /*+ INDEX(t idx) */ a FROM t --+ hint\n", ["comments"]),
    "select-exists": ("SELECT * FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.id = t.id)", ["parse"]),
    "select-lateral": ("SELECT * FROM t LATERAL VIEW EXPLODE(arr) x AS y", ["lexer"]),
    "select-assign": ("SET @a := 1", ["lexer"]),
    "select-regexp": ("SELECT * FROM t WHERE a REGEXP '^x' AND b NOT REGEXP 'y' AND c RLIKE 'z'", ["lexer"]),
    "select-double": ("SELECT CAST(a AS DOUBLE PRECISION) FROM t", ["lexer"]),
    # DML
    "insert-values": ("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')", ["parse", "types"]),
    "insert-select": ("insert into t select * from u", ["types"]),
    "update": ("UPDATE t SET a = a + 1, b = 'x' WHERE id = 5", ["types", "parse"]),
    "delete": ("DELETE FROM t WHERE id IN (1, 2) RETURNING id", ["types"]),
    "merge": ("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.v = s.v", ["types"]),
    # DDL
    "create-table": ("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL DEFAULT 'x', "
                     "price DECIMAL(10, 2), CONSTRAINT fk FOREIGN KEY (id) REFERENCES u (id))",
                     ["types", "format"]),
    "create-or-replace": ("CREATE OR REPLACE VIEW v AS SELECT a FROM t", ["types"]),
    "create-index": ("CREATE UNIQUE INDEX idx ON t (a, b)", ["types"]),
    "alter": ("ALTER TABLE t ADD COLUMN c INT", ["types"]),
    "drop": ("DROP TABLE IF EXISTS t CASCADE", ["types"]),
    "grant": ("GRANT SELECT ON t TO bob", ["types"]),
    # procedural
    "function-plpgsql": ("CREATE FUNCTION f(x integer) RETURNS integer AS $$\nBEGIN\n  IF x > 0 THEN\n"
                         "    RETURN x;\n  ELSE\n    RETURN -x;\n  END IF;\nEND;\n$$ LANGUAGE plpgsql",
                         ["split", "types"]),
    "begin-block": ("BEGIN\n  UPDATE t SET a = 1;\n  DELETE FROM u;\nEND", ["split"]),
    "if-block": ("IF a > 1 THEN SELECT 1; ELSE SELECT 2; END IF", ["split"]),
    "for-loop": ("FOR i IN 1..10 LOOP INSERT INTO t VALUES (i); END LOOP", ["split"]),
    "while-loop": ("WHILE x < 10 LOOP x := x + 1; END LOOP", ["split"]),
    "declare-handler": ("DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1", ["split"]),
    "transaction": ("BEGIN TRANSACTION", ["types"]),
    "commit": ("COMMIT", ["types"]),
    "go": ("SELECT 1\nGO 2", ["lexer"]),
    "command": ("\\copy t FROM 'f.csv'", ["lexer"]),
    "empty-stmt": ("", ["types"]),
    "only-comment": ("-- nothing here\n", ["types", "comments"]),
    "ws-only": ("   \n\t  ", ["types"]),
    "unknown": ("FOOBAR baz", ["types"]),
    "error-chars": ("SELECT ¤ FROM t", ["lexer"]),
    "nested-parens": ("SELECT ((a + (b * c)) / (d - e)) FROM t WHERE (((x)))", ["parse", "format"]),
    "in-list": ("SELECT * FROM t WHERE (a, b) IN ((1, 2), (3, 4))", ["parse"]),
    "long-list": ("SELECT alpha, beta, gamma, delta, epsilon, zeta, eta, theta, iota, kappa, lambda, mu "
                  "FROM very_long_table_name_here WHERE alpha = 'a very long string literal value' "
                  "AND beta = 'another rather long string literal'", ["format"]),
    "keywords-case": ("select Name, VALUE from Users where Id = 1 and Status = 'Active'", ["format"]),
    "mixed-newlines": ("SELECT a\r\nFROM t\rWHERE b = 1\n", ["lexer"]),
}

SCRIPTS = {
    "script-basic": "SELECT 1; SELECT 2;\nSELECT 3",
    "script-semicolon-in-string": "SELECT ';' AS x; INSERT INTO t VALUES ('a;b');",
    "script-comments": "-- head\nSELECT 1; -- after\n/* block; */ SELECT 2;",
    "script-begin": "BEGIN; UPDATE t SET a = 1; COMMIT;",
    "script-function": ("CREATE FUNCTION f() RETURNS void AS $$ BEGIN PERFORM 1; END; $$ LANGUAGE plpgsql;"
                        " SELECT f();"),
    "script-proc": ("CREATE PROCEDURE p() BEGIN DECLARE x INT; SET x = 1; "
                    "IF x > 0 THEN SELECT x; END IF; END; CALL p();"),
    "script-case-end": "SELECT CASE WHEN a THEN 1 END; SELECT 2;",
    "script-empty": ";;;",
    "script-trailing": "SELECT 1;   \n\n  ",
    "script-ws": "  SELECT 1 ;  SELECT 2  ;",
    "script-create-or-replace": "CREATE OR REPLACE FUNCTION g() RETURNS int AS 'select 1' LANGUAGE sql; SELECT g();",
    "script-declare-begin": "DECLARE x INT; BEGIN x := 1; END; SELECT x;",
    "script-package": ("CREATE PACKAGE BODY pk AS PROCEDURE p IS BEGIN NULL; END; END pk; SELECT 1 FROM dual;"),
    "script-loop": "BEGIN LOOP EXIT; END LOOP; END; SELECT 1;",
}

FORMAT_OPTIONS = {
    "reindent": {"reindent": True},
    "upper": {"keyword_case": "upper", "identifier_case": "lower"},
    "capitalize": {"keyword_case": "capitalize", "identifier_case": "capitalize"},
    "lower-strip": {"keyword_case": "lower", "strip_comments": True, "strip_whitespace": True},
    "aligned": {"reindent_aligned": True},
    "reindent-options": {"reindent": True, "indent_width": 4, "indent_after_first": True,
                         "indent_columns": True, "wrap_after": 30},
    "comma-first": {"reindent": True, "comma_first": True, "indent_tabs": True},
    "compact": {"reindent": True, "compact": True, "use_space_around_operators": True},
    "python": {"output_format": "python", "reindent": True},
    "php": {"output_format": "php"},
    "sql-out": {"output_format": "sql", "truncate_strings": 5},
    "margin": {"right_margin": 40, "truncate_strings": 8, "truncate_char": "~"},
}

BAD_OPTIONS = [
    {"keyword_case": "title"}, {"identifier_case": 1}, {"output_format": "xml"},
    {"strip_comments": "yes"}, {"use_space_around_operators": 2}, {"strip_whitespace": None},
    {"truncate_strings": "x"}, {"truncate_strings": 1}, {"truncate_strings": "10"},
    {"indent_columns": "no"}, {"reindent": 3}, {"reindent_aligned": "on"},
    {"indent_after_first": 0.5}, {"indent_tabs": "t"}, {"indent_width": "w"}, {"indent_width": 0},
    {"indent_width": "3"}, {"wrap_after": "w"}, {"wrap_after": -1}, {"wrap_after": "7"},
    {"comma_first": "x"}, {"compact": "x"}, {"right_margin": "m"}, {"right_margin": 5},
    {"right_margin": "12"}, {"truncate_strings": None}, {"keyword_case": None},
]

# Paths (indices into .tokens from the statement) to the nodes each case
# inspects, with the node's class (which methods to call on it).
NODES = {
    'select-simple': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([8], 'Where'), ([2, 0], 'Identifier'), ([2, 3], 'Identifier'), ([8, 2], 'Comparison'),
        ([8, 2, 0], 'Identifier'),
    ],
    'select-alias': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([2, 0], 'Identifier'), ([2, 3], 'Identifier'), ([2, 6], 'Identifier'),
        ([2, 9], 'Identifier'), ([6, 4], 'Identifier'), ([2, 0, 6], 'Identifier'),
        ([2, 3, 2], 'Identifier'), ([2, 9, 0], 'Function'), ([2, 9, 2], 'Identifier'),
        ([2, 9, 0, 0], 'Identifier'),
    ],
    'select-star': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([2, 0], 'Identifier'),
    ],
    'select-cast': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([2, 0], 'Identifier'), ([2, 3], 'Identifier'), ([2, 6], 'Function'),
        ([2, 3, 2], 'Function'), ([2, 3, 6], 'Identifier'), ([2, 6, 0], 'Identifier'),
        ([2, 6, 1], 'Parenthesis'), ([2, 3, 2, 0], 'Identifier'), ([2, 3, 2, 1], 'Parenthesis'),
        ([2, 6, 1, 1], 'Identifier'),
    ],
    'select-order': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'), ([6], 'Identifier'),
        ([10], 'IdentifierList'), ([10, 0], 'Identifier'), ([10, 3], 'Identifier'),
        ([10, 6], 'Identifier'), ([10, 0, 0], 'Identifier'), ([10, 3, 0], 'Identifier'),
    ],
    'select-array': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([2, 0], 'Identifier'), ([2, 3], 'Identifier'), ([2, 6], 'Identifier'),
        ([2, 0, 1], 'SquareBrackets'), ([2, 3, 1], 'SquareBrackets'),
        ([2, 3, 2], 'SquareBrackets'), ([2, 3, 6], 'Identifier'), ([2, 6, 1], 'SquareBrackets'),
    ],
    'select-join': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([10], 'Identifier'),
        ([14], 'Comparison'), ([18], 'Identifier'), ([22], 'Parenthesis'), ([26], 'Identifier'),
        ([30], 'Identifier'), ([34], 'Identifier'), ([38], 'Comparison'), ([14, 0], 'Identifier'),
        ([14, 4], 'Identifier'), ([22, 1], 'Identifier'),
    ],
    'select-where': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'), ([6], 'Identifier'), ([8], 'Where'),
        ([8, 2], 'Comparison'), ([8, 6], 'Parenthesis'), ([8, 10], 'Identifier'),
        ([8, 18], 'Identifier'), ([8, 30], 'Comparison'), ([8, 34], 'Comparison'),
        ([8, 38], 'Identifier'), ([8, 42], 'Parenthesis'), ([8, 2, 0], 'Identifier'),
    ],
    'select-group': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([10], 'Identifier'), ([14], 'Comparison'), ([2, 0], 'Identifier'), ([2, 3], 'Identifier'),
        ([14, 0], 'Function'), ([2, 3, 0], 'Function'), ([2, 3, 2], 'Identifier'),
        ([14, 0, 0], 'Identifier'), ([14, 0, 1], 'Parenthesis'), ([2, 3, 0, 0], 'Identifier'),
    ],
    'select-sub': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([8], 'Where'),
        ([6, 0], 'Parenthesis'), ([6, 4], 'Identifier'), ([8, 2], 'Identifier'),
        ([8, 6], 'Parenthesis'), ([6, 0, 3], 'Identifier'), ([6, 0, 7], 'Identifier'),
        ([8, 6, 3], 'Identifier'), ([8, 6, 7], 'Identifier'),
    ],
    'select-union': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'), ([6], 'Identifier'),
        ([12], 'Identifier'), ([16], 'Identifier'), ([22], 'Identifier'), ([26], 'Identifier'),
    ],
    'select-case': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([2, 0], 'Identifier'), ([2, 3], 'Case'), ([2, 0, 0], 'Case'), ([2, 3, 2], 'Identifier'),
        ([2, 0, 0, 4], 'Comparison'), ([2, 0, 0, 12], 'Comparison'),
        ([2, 0, 0, 4, 0], 'Identifier'), ([2, 0, 0, 12, 0], 'Identifier'),
    ],
    'select-window': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([10], 'Identifier'), ([2, 0], 'Identifier'), ([2, 3], 'Function'),
        ([10, 4], 'Parenthesis'), ([2, 0, 0], 'Function'), ([2, 0, 4], 'Identifier'),
        ([2, 3, 0], 'Identifier'), ([2, 3, 1], 'Parenthesis'), ([2, 3, 3], 'Over'),
        ([10, 4, 5], 'Identifier'),
    ],
    'select-func': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([2, 0], 'Function'), ([2, 3], 'Function'), ([2, 6], 'Function'), ([2, 9], 'Identifier'),
        ([2, 0, 0], 'Identifier'), ([2, 0, 1], 'Parenthesis'), ([2, 3, 0], 'Identifier'),
        ([2, 3, 1], 'Parenthesis'), ([2, 6, 0], 'Identifier'), ([2, 6, 1], 'Parenthesis'),
    ],
    'select-ops': [
        ([0], 'Token'), ([2], 'Operation'), ([3], 'Token'), ([6], 'IdentifierList'),
        ([10], 'Identifier'), ([12], 'Where'), ([2, 0], 'Operation'), ([6, 0], 'Identifier'),
        ([6, 3], 'Operation'), ([6, 6], 'Operation'), ([12, 2], 'Comparison'),
        ([12, 6], 'Comparison'), ([2, 0, 0], 'Operation'), ([6, 3, 0], 'Identifier'),
    ],
    'select-cte': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([10], 'Identifier'),
        ([2, 0], 'Identifier'), ([2, 3], 'Identifier'), ([2, 0, 4], 'Parenthesis'),
        ([2, 3, 4], 'Parenthesis'), ([2, 0, 4, 3], 'Identifier'), ([2, 3, 4, 3], 'Identifier'),
        ([2, 3, 4, 7], 'Identifier'), ([2, 0, 4, 3, 4], 'Identifier'),
    ],
    'select-cte-insert': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'), ([8], 'Identifier'),
        ([16], 'Identifier'), ([2, 4], 'Parenthesis'),
    ],
    'select-literals': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([3], 'Token'), ([8], 'IdentifierList'),
        ([9], 'IdentifierList'), ([20], 'Identifier'), ([8, 6], 'Identifier'),
        ([8, 9], 'Identifier'), ([8, 12], 'Identifier'), ([9, 3], 'Identifier'),
    ],
    'select-typed': [
        ([0], 'Token'), ([2], 'TypedLiteral'), ([3], 'Token'), ([5], 'TypedLiteral'),
        ([8], 'TypedLiteral'), ([11], 'TypedLiteral'), ([15], 'Identifier'), ([17], 'Where'),
        ([17, 2], 'Comparison'), ([17, 2, 0], 'Identifier'), ([17, 2, 4], 'Operation'),
        ([17, 2, 4, 0], 'TypedLiteral'), ([17, 2, 4, 4], 'TypedLiteral'),
    ],
    'select-placeholders': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([8], 'Where'),
        ([8, 2], 'Comparison'), ([8, 6], 'Comparison'), ([8, 10], 'Comparison'),
        ([8, 14], 'Comparison'), ([8, 18], 'Comparison'), ([8, 22], 'Comparison'),
        ([8, 2, 0], 'Identifier'), ([8, 6, 0], 'Identifier'), ([8, 10, 0], 'Identifier'),
        ([8, 14, 0], 'Identifier'),
    ],
    'select-json': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'IdentifierList'), ([6], 'IdentifierList'),
        ([14], 'Identifier'), ([6, 3], 'Comparison'), ([6, 3, 0], 'Identifier'),
    ],
    'select-tz': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'), ([8], 'Identifier'),
    ],
    'select-brackets': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([2, 0], 'Identifier'), ([2, 3], 'Identifier'),
    ],
    'select-distinct': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'IdentifierList'), ([10], 'Identifier'),
        ([14], 'IdentifierList'), ([6, 0], 'Identifier'), ([6, 3], 'Identifier'),
        ([14, 0], 'Identifier'), ([14, 3], 'Identifier'), ([6, 0, 0], 'Parenthesis'),
        ([6, 0, 2], 'Identifier'), ([14, 3, 0], 'Identifier'), ([6, 0, 0, 1], 'Identifier'),
    ],
    'select-comments': [
        ([0], 'Token'), ([2], 'Identifier'), ([3], 'Token'), ([5], 'Comment'),
        ([7], 'IdentifierList'), ([10], 'Identifier'), ([7, 0], 'Identifier'),
        ([7, 3], 'Identifier'), ([7, 0, 2], 'Comment'), ([7, 3, 2], 'Comment'),
    ],
    'select-hints': [
        ([0], 'Token'), ([2], 'Comment'), ([4], 'Identifier'), ([6], 'Token'), ([8], 'Identifier'),
    ],
    'select-exists': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([8], 'Where'),
        ([8, 6], 'Parenthesis'), ([8, 6, 7], 'Identifier'), ([8, 6, 9], 'Where'),
        ([8, 6, 9, 2], 'Comparison'), ([8, 6, 9, 2, 0], 'Identifier'),
        ([8, 6, 9, 2, 4], 'Identifier'),
    ],
    'select-lateral': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([9], 'Identifier'),
        ([9, 0], 'Parenthesis'), ([9, 2], 'Identifier'), ([9, 0, 1], 'Identifier'),
        ([9, 2, 4], 'Identifier'),
    ],
    'select-assign': [
        ([0], 'Token'), ([2], 'Token'), ([3], 'Assignment'), ([3, 0], 'Identifier'),
    ],
    'select-regexp': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([8], 'Where'),
        ([8, 2], 'Comparison'), ([8, 6], 'Comparison'), ([8, 10], 'Comparison'),
        ([8, 2, 0], 'Identifier'), ([8, 6, 0], 'Identifier'), ([8, 10, 0], 'Identifier'),
    ],
    'select-double': [
        ([0], 'Token'), ([2], 'Function'), ([4], 'Token'), ([6], 'Identifier'),
        ([2, 0], 'Identifier'), ([2, 1], 'Parenthesis'), ([2, 1, 1], 'Identifier'),
    ],
    'insert-values': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'Function'), ([6], 'Values'), ([4, 0], 'Identifier'),
        ([4, 2], 'Parenthesis'), ([6, 2], 'Parenthesis'), ([6, 5], 'Parenthesis'),
        ([4, 2, 1], 'IdentifierList'), ([6, 2, 1], 'IdentifierList'),
        ([6, 5, 1], 'IdentifierList'), ([4, 2, 1, 0], 'Identifier'), ([4, 2, 1, 3], 'Identifier'),
    ],
    'insert-select': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'Identifier'), ([12], 'Identifier'),
    ],
    'update': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'), ([6], 'IdentifierList'),
        ([8], 'Where'), ([6, 0], 'Comparison'), ([6, 3], 'Comparison'), ([8, 2], 'Comparison'),
        ([6, 0, 0], 'Identifier'), ([6, 0, 4], 'Operation'), ([6, 3, 0], 'Identifier'),
        ([8, 2, 0], 'Identifier'), ([6, 0, 4, 0], 'Identifier'),
    ],
    'delete': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'Identifier'), ([6], 'Where'), ([9], 'Identifier'),
        ([6, 2], 'Identifier'), ([6, 6], 'Parenthesis'), ([6, 6, 1], 'IdentifierList'),
    ],
    'merge': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'Identifier'), ([8], 'Identifier'),
        ([12], 'Comparison'), ([16], 'Identifier'), ([24], 'Comparison'), ([12, 0], 'Identifier'),
        ([12, 4], 'Identifier'), ([24, 0], 'Identifier'), ([24, 4], 'Identifier'),
    ],
    'create-table': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'Identifier'), ([6], 'Parenthesis'),
        ([6, 1], 'Identifier'), ([6, 5], 'IdentifierList'), ([6, 7], 'Function'),
        ([6, 13], 'IdentifierList'), ([6, 15], 'IdentifierList'), ([6, 17], 'Identifier'),
        ([6, 23], 'Parenthesis'), ([6, 27], 'Function'), ([6, 5, 3], 'Identifier'),
        ([6, 7, 0], 'Identifier'),
    ],
    'create-or-replace': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'Identifier'), ([10], 'Identifier'),
        ([14], 'Identifier'),
    ],
    'create-index': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([10], 'Function'),
        ([10, 0], 'Identifier'), ([10, 2], 'Parenthesis'), ([10, 2, 1], 'IdentifierList'),
        ([10, 2, 1, 0], 'Identifier'), ([10, 2, 1, 3], 'Identifier'),
    ],
    'alter': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'Identifier'), ([10], 'Identifier'),
    ],
    'drop': [
        ([0], 'Token'), ([2], 'Token'), ([8], 'Identifier'),
    ],
    'grant': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([10], 'Identifier'),
    ],
    'function-plpgsql': [
        ([0], 'Token'), ([2], 'Token'), ([4], 'Function'), ([8], 'Identifier'),
        ([4, 0], 'Identifier'), ([4, 1], 'Parenthesis'), ([4, 1, 1], 'Identifier'),
    ],
    'begin-block': [
        ([0], 'Token'), ([4], 'Token'), ([6], 'Identifier'), ([10], 'Comparison'),
        ([10, 0], 'Identifier'),
    ],
    'if-block': [
        ([0], 'Token'), ([2], 'Comparison'), ([4], 'Token'), ([2, 0], 'Identifier'),
    ],
    'for-loop': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'), ([15], 'Identifier'),
        ([17], 'Values'), ([17, 2], 'Parenthesis'), ([17, 2, 1], 'Identifier'),
    ],
    'while-loop': [
        ([0], 'Token'), ([2], 'Comparison'), ([4], 'Token'), ([6], 'Assignment'),
        ([2, 0], 'Identifier'), ([6, 0], 'Identifier'), ([6, 4], 'Operation'),
        ([6, 4, 0], 'Identifier'),
    ],
    'declare-handler': [
        ([0], 'Token'), ([2], 'Token'), ([12], 'Comparison'), ([12, 0], 'Identifier'),
    ],
    'transaction': [
        ([0], 'Token'), ([2], 'Token'),
    ],
    'commit': [
        ([0], 'Token'),
    ],
    'go': [
        ([0], 'Token'), ([2], 'Token'),
    ],
    'command': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'),
    ],
    'empty-stmt': [
    ],
    'only-comment': [
        ([0], 'Token'),
    ],
    'ws-only': [
    ],
    'unknown': [
        ([0], 'Identifier'), ([0, 0], 'Token'), ([0, 2], 'Identifier'), ([0, 2, 0], 'Token'),
    ],
    'error-chars': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'),
    ],
    'nested-parens': [
        ([0], 'Token'), ([2], 'Parenthesis'), ([4], 'Token'), ([6], 'Identifier'), ([8], 'Where'),
        ([2, 1], 'Operation'), ([8, 2], 'Parenthesis'), ([2, 1, 0], 'Parenthesis'),
        ([2, 1, 4], 'Parenthesis'), ([8, 2, 1], 'Parenthesis'), ([2, 1, 0, 1], 'Operation'),
        ([2, 1, 4, 1], 'Operation'), ([8, 2, 1, 1], 'Parenthesis'),
        ([2, 1, 0, 1, 0], 'Identifier'),
    ],
    'in-list': [
        ([0], 'Token'), ([2], 'Token'), ([6], 'Identifier'), ([8], 'Where'),
        ([8, 2], 'Parenthesis'), ([8, 6], 'Parenthesis'), ([8, 2, 1], 'IdentifierList'),
        ([8, 6, 1], 'Parenthesis'), ([8, 6, 4], 'Parenthesis'), ([8, 2, 1, 0], 'Identifier'),
        ([8, 2, 1, 3], 'Identifier'), ([8, 6, 1, 1], 'IdentifierList'),
        ([8, 6, 4, 1], 'IdentifierList'),
    ],
    'long-list': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([8], 'Where'), ([2, 0], 'Identifier'), ([2, 3], 'Identifier'), ([2, 6], 'Identifier'),
        ([2, 9], 'Identifier'), ([2, 12], 'Identifier'), ([2, 15], 'Identifier'),
        ([2, 18], 'Identifier'), ([2, 21], 'Identifier'), ([2, 24], 'Identifier'),
    ],
    'keywords-case': [
        ([0], 'Token'), ([2], 'IdentifierList'), ([4], 'Token'), ([6], 'Identifier'),
        ([8], 'Where'), ([2, 0], 'Identifier'), ([2, 3], 'Identifier'), ([8, 2], 'Comparison'),
        ([8, 6], 'Comparison'), ([8, 2, 0], 'Identifier'), ([8, 6, 0], 'Identifier'),
    ],
    'mixed-newlines': [
        ([0], 'Token'), ([2], 'Identifier'), ([4], 'Token'), ([6], 'Identifier'), ([8], 'Where'),
        ([8, 2], 'Comparison'), ([8, 2, 0], 'Identifier'),
    ],
}


# What each class of node answers (its own methods and its bases').
GROUP = ["get_name", "get_real_name", "get_parent_name", "get_alias", "has_alias"]
METHODS = {
    "Token": [],
    "Identifier": ["get_typecast", "get_ordering", "is_wildcard"],
    "Function": ["get_parameters", "get_window"],
    "IdentifierList": ["get_identifiers"],
    "Case": ["get_cases"],
    "Comment": ["is_multiline"],
}
PROPERTIES = {"Comparison": ["left", "right"]}


def _inspect_node(path, cls, windowed=False):
    """Ops that look at the node at `path` below $s (kept as $t)."""
    ops = []
    parent = "$s"
    for depth, i in enumerate(path[:-1]):
        ops.append({"op": "[]", "args": [parent, i], "as": f"n{depth}", "observe": False})
        parent = f"$n{depth}"
    ops += [{"op": "[]", "args": [parent, path[-1]], "as": "t", "observe": False},
            {"op": "str", "args": ["$t"]}, {"get": "$t.ttype"}, {"get": "$t.is_group"},
            {"get": "$t.is_keyword"}, {"get": "$t.is_whitespace"}, {"get": "$t.normalized"},
            {"op": "type", "args": ["$t"]},
            {"call": "$t.within", "args": ["$Where"]},
            {"call": "$t.is_child_of", "args": ["$s"]},
            {"call": "$t.has_ancestor", "args": ["$s"]}]
    if cls == "Token":
        return ops
    ops += [{"call": "$t." + m} for m in GROUP]
    ops += [{"call": "$t.token_first", "as": "tf", "observe": False}, {"op": "str", "args": ["$tf"]},
            {"call": "$t.token_first", "kwargs": {"skip_ws": False, "skip_cm": True}, "as": "tf2",
             "observe": False}, {"op": "str", "args": ["$tf2"]}]
    for m in METHODS.get(cls, []):
        if m in ("get_identifiers", "get_parameters", "get_cases"):
            ops += [{"call": "$t." + m, "as": "r_" + m, "observe": False},
                    {"op": "list", "args": ["$r_" + m], "as": "l_" + m, "observe": False},
                    {"op": "len", "args": ["$l_" + m]}]
        elif m == "get_window" and windowed:
            ops += [{"call": "$t." + m, "as": "win", "observe": False},
                    {"op": "str", "args": ["$win"]}]
        else:
            ops.append({"call": "$t." + m})
    if cls == "Identifier":
        ops += [{"call": "$t.get_array_indices", "as": "ai", "observe": False},
                {"op": "list", "args": ["$ai"], "as": "ail", "observe": False},
                {"op": "len", "args": ["$ail"]}]
    for prop in PROPERTIES.get(cls, []):
        ops += [{"get": "$t." + prop, "as": prop, "observe": False},
                {"op": "str", "args": ["$" + prop]}]
    return ops


def _statement_ops(cid, sql):
    ops = [{"get": "sql.Where", "as": "Where", "observe": False},
           {"call": "parse", "args": [sql], "as": "p", "observe": False},
           {"op": "len", "args": ["$p"]}]
    if not sql.strip():  # no statement to look at
        ops = ops[1:]
    else:
        ops += [
           {"op": "[]", "args": ["$p", 0], "as": "s", "observe": False},
           {"call": "$s._pprint_tree"},
           {"call": "$s.get_type"}, {"op": "str", "args": ["$s"]},
           {"call": "$s.get_sublists", "as": "sub", "observe": False},
           {"op": "list", "args": ["$sub"], "as": "subl", "observe": False},
           {"op": "len", "args": ["$subl"]},
           {"call": "$s.flatten", "as": "fl", "observe": False},
           {"op": "list", "args": ["$fl"], "as": "fll", "observe": False},
           {"op": "len", "args": ["$fll"]},
           {"get": "$s.tokens", "as": "tl", "observe": False},
           {"op": "len", "args": ["$tl"]}]
    for path, cls in NODES[cid]:
        ops += _inspect_node(path, cls, " OVER " in sql)
    ops += [{"call": "split", "args": [sql]},
            {"call": "format", "args": [sql]}]
    for opts in FORMAT_OPTIONS.values():
        ops.append({"call": "format", "args": [sql], "kwargs": opts})
    return ops


def cases():
    out = []
    for cid, (sql, covers) in STATEMENTS.items():
        out.append({"id": "stmt-" + cid, "covers": ["parse", "format", "split", "output", *covers],
                    "ops": _statement_ops(cid, sql)})
    for cid, sql in SCRIPTS.items():
        out.append({"id": cid, "covers": ["split", "parse"], "ops": [
            {"call": "split", "args": [sql]},
            {"call": "split", "args": [sql], "kwargs": {"strip_semicolon": True}},
            {"call": "parse", "args": [sql], "as": "p", "observe": False},
            {"op": "len", "args": ["$p"]},
            *[op for k in range(4) for op in (
                {"op": "[]", "args": ["$p", k], "as": "s", "observe": False},
                {"call": "$s.get_type"}, {"op": "str", "args": ["$s"]}, {"call": "$s._pprint_tree"})],
            {"call": "format", "args": [sql], "kwargs": {"reindent": True, "keyword_case": "upper"}},
            {"call": "format", "args": [sql], "kwargs": {"strip_comments": True}}]})
    out.append({"id": "options-invalid", "covers": ["options"], "ops": [
        {"call": "format", "args": ["select 1"], "kwargs": opts} for opts in BAD_OPTIONS]})
    out.append({"id": "options-validate", "covers": ["options"], "ops": [
        {"call": "formatter.validate_options", "args": [opts]} for opts in
        [{}, {"reindent": True}, {"indent_tabs": True, "indent_width": "4"}, {"truncate_strings": 3},
         {"indent_columns": True}, {"reindent_aligned": True}, {"right_margin": 20}]]})
    out.append({"id": "encoding", "covers": ["parse", "split"], "ops": [
        {"call": "split", "args": [b"SELECT 1; SELECT 2"]},
        {"call": "split", "args": ["SELECT 'é'; SELECT 2".encode("latin-1")], "kwargs": {"encoding": "latin-1"}},
        {"call": "split", "args": [b"SELECT '\xff'"]},
        {"call": "format", "args": [b"select 1"], "kwargs": {"keyword_case": "upper"}},
        {"call": "split", "args": [5]},
        {"call": "parse", "args": [None]}]})
    out.append({"id": "parsestream", "covers": ["parse"], "ops": [
        {"call": "parsestream", "args": ["SELECT 1; SELECT 2"], "as": "g", "observe": False},
        {"op": "list", "args": ["$g"], "as": "lst", "observe": False},
        {"op": "len", "args": ["$lst"]},
        {"op": "[]", "args": ["$lst", 1], "as": "s", "observe": False},
        {"op": "str", "args": ["$s"]}]})
    out.append({"id": "tokenize", "covers": ["lexer"], "ops": [
        {"call": "lexer.tokenize", "args": [sql], "as": "g" + str(k), "observe": False}
        for k, sql in enumerate(["SELECT a, b FROM t WHERE x = 'y' -- c\n", "x::int @> $1 ¤",
                                 "INSERT INTO `t` VALUES (1.5e3, -0x1F, :p)"])] + [
        {"op": "list", "args": ["$g" + str(k)]} for k in range(3)]})
    out.append({"id": "token-types", "covers": ["tokens"], "ops": [
        {"get": "tokens.Keyword.DML", "as": "dml", "observe": False},
        {"op": "repr", "args": ["$dml"]},
        {"get": "tokens.Keyword", "as": "kw", "observe": False},
        {"op": "in", "args": ["$dml", "$kw"]},
        {"op": "in", "args": ["$kw", "$dml"]},
        {"get": "tokens.Name.Placeholder", "as": "ph", "observe": False},
        {"op": "repr", "args": ["$ph"]},
        {"get": "tokens.Token", "as": "tok", "observe": False},
        {"op": "in", "args": ["$ph", "$tok"]},
        {"op": "in", "args": [5, "$tok"]},
        {"get": "tokens.String", "as": "st", "observe": False},
        {"op": "repr", "args": ["$st"]},
        {"get": "$tok.Newthing", "as": "nt", "observe": False},
        {"op": "repr", "args": ["$nt"]},
        {"get": "$nt.parent", "as": "ntp", "observe": False},
        {"op": "repr", "args": ["$ntp"]}]})
    out.append({"id": "token-api", "covers": ["tokens", "identifiers"], "ops": [
        {"call": "parse", "args": ["SELECT a.b AS c, f(x) FROM t WHERE y = 2"], "as": "p", "observe": False},
        {"op": "[]", "args": ["$p", 0], "as": "s", "observe": False},
        {"get": "tokens.Keyword", "as": "kw", "observe": False},
        {"get": "tokens.Keyword.DML", "as": "dml", "observe": False},
        {"call": "$s.token_first", "as": "f", "observe": False},
        {"op": "str", "args": ["$f"]},
        {"call": "$f.match", "args": ["$dml", "select"]},
        {"call": "$f.match", "args": ["$dml", ["SELECT", "UPDATE"]]},
        {"call": "$f.match", "args": ["$dml", ["S.*T"]], "kwargs": {"regex": True}},
        {"call": "$f.match", "args": ["$dml", "^UP"], "kwargs": {"regex": True}},
        {"call": "$f.match", "args": ["$kw", None]},
        {"call": "$f.match", "args": ["$dml", None]},
        {"call": "$f.match", "args": ["$kw", "select"]},
        {"call": "$s.token_next", "args": [0], "as": "nx", "observe": False},
        {"op": "[]", "args": ["$nx", 0]},
        {"call": "$s.token_next", "args": [0], "kwargs": {"skip_ws": False}, "as": "nx2", "observe": False},
        {"op": "[]", "args": ["$nx2", 0]},
        {"call": "$s.token_prev", "args": [4], "as": "pv", "observe": False},
        {"op": "[]", "args": ["$pv", 0]},
        {"call": "$s.token_next", "args": [None], "as": "nn", "observe": False},
        {"op": "[]", "args": ["$nn", 0]},
        {"call": "$s.token_prev", "args": [0], "as": "pp", "observe": False},
        {"op": "[]", "args": ["$pp", 0]},
        {"call": "$s.token_index", "args": ["$f"]},
        {"call": "$s.get_token_at_offset", "args": [8], "as": "at", "observe": False},
        {"op": "str", "args": ["$at"]},
        {"call": "$s.get_token_at_offset", "args": [500]},
        {"call": "$s.token_first", "kwargs": {"skip_cm": True, "skip_ws": False}, "as": "f2", "observe": False},
        {"op": "str", "args": ["$f2"]},
        {"op": "[]", "args": ["$s", 2], "as": "il", "observe": False},
        {"op": "str", "args": ["$il"]},
        {"call": "$il.get_identifiers", "as": "idg", "observe": False},
        {"op": "list", "args": ["$idg"], "as": "ids", "observe": False},
        {"op": "[]", "args": ["$ids", 0], "as": "id0", "observe": False},
        {"call": "$id0.get_parent_name"}, {"call": "$id0.get_real_name"}, {"call": "$id0.get_alias"},
        {"call": "$id0.get_name"}, {"call": "$id0.has_alias"},
        {"op": "[]", "args": ["$ids", 1], "as": "id1", "observe": False},
        {"call": "$id1.get_name"}, {"call": "$id1.get_parameters", "as": "prm", "observe": False},
        {"op": "len", "args": ["$prm"]},
        {"call": "$id0.within", "args": ["$il"]},
        {"call": "$id0.is_child_of", "args": ["$il"]},
        {"call": "$id0.has_ancestor", "args": ["$s"]},
        {"call": "$s.insert_after", "args": [0, "$f"]},
        {"op": "str", "args": ["$s"]},
        {"call": "$s.insert_before", "args": [0, "$f"]},
        {"op": "str", "args": ["$s"]},
        {"call": "$s.insert_after", "args": [100, "$f"]},
        {"op": "str", "args": ["$s"]},
        {"get": "sql.Identifier", "as": "Identifier", "observe": False},
        {"call": "$s.group_tokens", "args": ["$Identifier", 0, 2], "as": "g", "observe": False},
        {"op": "str", "args": ["$g"]},
        {"call": "$s.group_tokens", "args": ["$Identifier", 0, 2], "kwargs": {"extend": True},
         "as": "g2", "observe": False},
        {"op": "str", "args": ["$g2"]},
        {"call": "$s._pprint_tree", "kwargs": {"max_depth": 1}}]})
    out.append({"id": "cli", "covers": ["cli"], "ops": [
        {"call": "cli.main", "args": [["/dev/null"]]},
        {"call": "cli.main", "args": [["/dev/null", "-k", "upper", "-r", "--comma_first", "True"]]},
        {"call": "cli.main", "args": [["/nonexistent/file.sql"]]},
        {"call": "cli.main", "args": [["/dev/null", "--indent_width", "0"]]},
        {"call": "cli.create_parser", "as": "ap", "observe": False},
        {"get": "$ap.prog"}]})
    out.append({"id": "keyword-tables", "covers": ["lexer"], "ops": [
        *[{"get": "keywords." + name} for name in
          ["KEYWORDS", "KEYWORDS_COMMON", "KEYWORDS_ORACLE", "KEYWORDS_MYSQL", "KEYWORDS_PLPGSQL",
           "KEYWORDS_HQL", "KEYWORDS_MSACCESS", "KEYWORDS_SNOWFLAKE", "KEYWORDS_BIGQUERY"]],
        {"op": "str", "args": [" "], "as": "sep", "observe": False},
        *[op for k, name in enumerate(["KEYWORDS", "KEYWORDS_COMMON", "KEYWORDS_ORACLE", "KEYWORDS_MYSQL",
                                        "KEYWORDS_PLPGSQL", "KEYWORDS_HQL", "KEYWORDS_MSACCESS",
                                        "KEYWORDS_SNOWFLAKE", "KEYWORDS_BIGQUERY"])
          for op in ({"get": "keywords." + name, "as": f"kw{k}", "observe": False},
                     {"op": "list", "args": [f"$kw{k}"], "as": f"names{k}", "observe": False},
                     {"call": "$sep.join", "args": [f"$names{k}"], "as": f"text{k}", "observe": False},
                     {"call": "lexer.tokenize", "args": [f"$text{k}"], "as": f"tok{k}", "observe": False},
                     {"op": "list", "args": [f"$tok{k}"]})]]})
    out.append({"id": "filter-details", "covers": ["format", "split", "cli"], "ops": [
        {"call": "format", "args": ["SELECT a+b, c +d, e- f, g * h FROM t WHERE x>1 AND y<=2"],
         "kwargs": {"use_space_around_operators": True}},
        {"call": "format", "args": ["SELECT a +"], "kwargs": {"use_space_around_operators": True}},
        {"call": "format", "args": ["SELECT a /* c */+ b FROM t"], "kwargs": {"use_space_around_operators": True}},
        *[{"call": "format", "args": ["SELECT alpha, beta, gamma, delta, epsilon, zeta, eta, theta FROM t"],
           "kwargs": {"reindent": True, "wrap_after": w}} for w in (5, 10, 15, 20, 25, 30, 35, 40, 50)],
        {"call": "format", "args": ["SELECT a, b FROM t WHERE c = 1 INTO OUTFILE 'x'"], "kwargs": {"reindent": True}},
        {"call": "split", "args": ["ALTER PROCEDURE p BEGIN SELECT 1; END; SELECT 2;"]},
        {"call": "split", "args": ["DROP FUNCTION f BEGIN SELECT 1; END; SELECT 2;"]},
        {"call": "split", "args": ["CREATE PROCEDURE p() BEGIN SELECT 1; END; END; DECLARE x INT; SELECT 2;"]},
        {"call": "split", "args": ["CREATE FUNCTION f() BEGIN END; IF x THEN SELECT 1; END IF; SELECT 2;"]},
        {"call": "format", "args": ["SELECT ts AT TIME ZONE 'UTC', AT TIME ZONE 'CET' FROM t"], "kwargs": {"reindent": True}},
        {"call": "format", "args": ["SELECT " + ", ".join(f"column_{k}" for k in range(20)) + " FROM t"],
         "kwargs": {"right_margin": 30}},
        {"call": "cli.create_parser", "as": "ap", "observe": False},
        {"call": "$ap.format_help"}]})
    out.append({"id": "big-script", "covers": ["format", "split"], "ops": [
        {"call": "format", "args": [script(random.Random(3), 15)], "kwargs": {"reindent": True, "keyword_case": "upper"}},
        {"call": "split", "args": [script(random.Random(4), 15)]}]})
    return out


# Generated scripts for timing.
COLS = ["id", "name", "price", "qty", "created_at", "status", "owner_id", "total", "region"]
TABLES = ["orders", "customers", "items", "payments", "regions", "logs"]


def _expr(rng):
    c = rng.choice(COLS)
    r = rng.random()
    if r < 0.3:
        return f"{rng.choice('abc')}.{c}"
    if r < 0.45:
        return f"{rng.choice(['sum', 'count', 'max', 'coalesce'])}({c})"
    if r < 0.55:
        return f"{c} * {rng.randrange(1, 100)}"
    if r < 0.62:
        return f"CASE WHEN {c} > {rng.randrange(10)} THEN 'hi' ELSE 'lo' END"
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
    r = rng.random()
    if r < 0.55:
        cols = ", ".join(_expr(rng) + (f" AS x{k}" if rng.random() < 0.3 else "")
                         for k in range(rng.randrange(1, 6)))
        s = f"SELECT {cols} FROM {rng.choice(TABLES)} a"
        if rng.random() < 0.5:
            s += f" LEFT JOIN {rng.choice(TABLES)} b ON a.id = b.{rng.choice(COLS)}"
        s += " WHERE " + " AND ".join(_cond(rng) for _ in range(rng.randrange(1, 4)))
        if rng.random() < 0.4:
            s += f" GROUP BY {rng.choice(COLS)} ORDER BY {rng.choice(COLS)} DESC"
        return s + ";"
    if r < 0.7:
        vals = ", ".join(f"({rng.randrange(100)}, '{rng.choice(COLS)}')" for _ in range(rng.randrange(1, 4)))
        return f"INSERT INTO {rng.choice(TABLES)} (id, name) VALUES {vals};"
    if r < 0.85:
        return (f"UPDATE {rng.choice(TABLES)} SET {rng.choice(COLS)} = {rng.choice(COLS)} + 1 "
                f"WHERE {_cond(rng)};")
    if r < 0.93:
        return f"DELETE FROM {rng.choice(TABLES)} WHERE {_cond(rng)}; -- cleanup"
    return (f"CREATE TABLE t{rng.randrange(100)} (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, "
            f"price DECIMAL(10, 2));")


def script(rng, n):
    return "\n".join(statement(rng) for _ in range(n))


def timing_inputs():
    def make(n):
        def one(seed):
            rng = random.Random(seed)
            return {"ops": [
                {"call": "format", "args": [script(rng, n)],
                 "kwargs": {"reindent": True, "keyword_case": "upper"}},
                {"call": "split", "args": [script(rng, n)]}]}
        return one

    return [
        {"id": "statements4", "size": 4, "make": make(4)},
        {"id": "statements20", "size": 20, "make": make(20)},
    ]
