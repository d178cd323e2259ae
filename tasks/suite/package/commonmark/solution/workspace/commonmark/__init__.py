# flake8: noqa
from __future__ import unicode_literals, absolute_import

from commonmark.main import commonmark
from commonmark.dump import dumpAST, dumpJSON
from commonmark.blocks import Parser
from commonmark.render.html import HtmlRenderer
from commonmark.render.rst import ReStructuredTextRenderer
