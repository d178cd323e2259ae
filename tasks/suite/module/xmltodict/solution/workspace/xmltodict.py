#!/usr/bin/env python
"Makes working with XML feel like you are working with JSON"

try:
    from defusedexpat import pyexpat as expat
except ImportError:
    from xml.parsers import expat
from xml.sax.saxutils import XMLGenerator
from xml.sax.xmlreader import AttributesImpl
try:  # pragma no cover
    from cStringIO import StringIO
except ImportError:  # pragma no cover
    try:
        from StringIO import StringIO
    except ImportError:
        from io import StringIO

_dict = dict
import platform
if tuple(map(int, platform.python_version_tuple()[:2])) < (3, 7):
    from collections import OrderedDict as _dict

from inspect import isgenerator
import re

try:  # pragma no cover
    _basestring = basestring
except NameError:  # pragma no cover
    _basestring = str
try:  # pragma no cover
    _unicode = unicode
except NameError:  # pragma no cover
    _unicode = str

__author__ = 'Martin Blech'
__version__ = '0.13.0'
__license__ = 'MIT'


class ParsingInterrupted(Exception):
    pass


class _DictSAXHandler(object):
    def __init__(self,
                 item_depth=0,
                 item_callback=lambda *args: True,
                 xml_attribs=True,
                 attr_prefix='@',
                 cdata_key='#text',
                 force_cdata=False,
                 cdata_separator='',
                 postprocessor=None,
                 dict_constructor=_dict,
                 strip_whitespace=True,
                 namespace_separator=':',
                 namespaces=None,
                 force_list=None,
                 comment_key='#comment'):
        self.path = []
        self.stack = []
        self.data = []
        self.item = None
        self.item_depth = item_depth
        self.xml_attribs = xml_attribs
        self.item_callback = item_callback
        self.attr_prefix = attr_prefix
        self.cdata_key = cdata_key
        self.force_cdata = force_cdata
        self.cdata_separator = cdata_separator
        self.postprocessor = postprocessor
        self.dict_constructor = dict_constructor
        self.strip_whitespace = strip_whitespace
        self.namespace_separator = namespace_separator
        self.namespaces = namespaces
        self.namespace_declarations = dict_constructor()
        self.force_list = force_list
        self.comment_key = comment_key

    def _build_name(self, full_name):
        if self.namespaces is None:
            return full_name
        i = full_name.rfind(self.namespace_separator)
        if i == -1:
            return full_name
        namespace, name = full_name[:i], full_name[i+1:]
        try:
            short_namespace = self.namespaces[namespace]
        except KeyError:
            short_namespace = namespace
        if not short_namespace:
            return name
        else:
            return self.namespace_separator.join((short_namespace, name))

    def _attrs_to_dict(self, attrs):
        if isinstance(attrs, dict):
            return attrs
        return self.dict_constructor(zip(attrs[0::2], attrs[1::2]))

    def startNamespaceDecl(self, prefix, uri):
        self.namespace_declarations[prefix or ''] = uri

    def startElement(self, full_name, attrs):
        name = self._build_name(full_name)
        attrs = self._attrs_to_dict(attrs)
        if attrs and self.namespace_declarations:
            attrs['xmlns'] = self.namespace_declarations
            self.namespace_declarations = self.dict_constructor()
        self.path.append((name, attrs or None))
        if len(self.path) > self.item_depth:
            self.stack.append((self.item, self.data))
            if self.xml_attribs:
                attr_entries = []
                for key, value in attrs.items():
                    key = self.attr_prefix+self._build_name(key)
                    if self.postprocessor:
                        entry = self.postprocessor(self.path, key, value)
                    else:
                        entry = (key, value)
                    if entry:
                        attr_entries.append(entry)
                attrs = self.dict_constructor(attr_entries)
            else:
                attrs = None
            self.item = attrs or None
            self.data = []

    def endElement(self, full_name):
        name = self._build_name(full_name)
        if len(self.path) == self.item_depth:
            item = self.item
            if item is None:
                item = (None if not self.data
                        else self.cdata_separator.join(self.data))

            should_continue = self.item_callback(self.path, item)
            if not should_continue:
                raise ParsingInterrupted()
        if self.stack:
            data = (None if not self.data
                    else self.cdata_separator.join(self.data))
            item = self.item
            self.item, self.data = self.stack.pop()
            if self.strip_whitespace and data:
                data = data.strip() or None
            if data and self.force_cdata and item is None:
                item = self.dict_constructor()
            if item is not None:
                if data:
                    self.push_data(item, self.cdata_key, data)
                self.item = self.push_data(self.item, name, item)
            else:
                self.item = self.push_data(self.item, name, data)
        else:
            self.item = None
            self.data = []
        self.path.pop()

    def characters(self, data):
        if not self.data:
            self.data = [data]
        else:
            self.data.append(data)

    def comments(self, data):
        if self.strip_whitespace:
            data = data.strip()
        self.item = self.push_data(self.item, self.comment_key, data)

    def push_data(self, item, key, data):
        if self.postprocessor is not None:
            result = self.postprocessor(self.path, key, data)
            if result is None:
                return item
            key, data = result
        if item is None:
            item = self.dict_constructor()
        try:
            value = item[key]
            if isinstance(value, list):
                value.append(data)
            else:
                item[key] = [value, data]
        except KeyError:
            if self._should_force_list(key, data):
                item[key] = [data]
            else:
                item[key] = data
        return item

    def _should_force_list(self, key, value):
        if not self.force_list:
            return False
        if isinstance(self.force_list, bool):
            return self.force_list
        try:
            return key in self.force_list
        except TypeError:
            return self.force_list(self.path[:-1], key, value)


_LIST_TYPES = (tuple, list, set, frozenset, dict)


def _fast_handlers(h):
    """Expat handlers equivalent to `h`'s methods for the common settings
    (item_depth 0, no postprocessor, force_list absent, a bool or a plain
    container): no path is kept (nothing can look at it), names are built
    once per distinct name, and keys are tested with `in` rather than by
    catching KeyError. Returns (start, end, characters, comments, result) or
    None when the settings need the general handler."""
    if h.item_depth != 0 or h.postprocessor is not None:
        return None
    if type(h.attr_prefix) is not str or type(h.cdata_separator) is not str:
        return None
    fl = h.force_list
    force_all = False
    if not fl:
        fl = None
    elif isinstance(fl, bool):
        force_all = True
        fl = None
    elif not isinstance(fl, _LIST_TYPES):
        return None
    dc = h.dict_constructor
    ap = h.attr_prefix
    ap_add = ap.__add__
    ck = h.cdata_key
    comment_key = h.comment_key
    sep = h.cdata_separator
    strip = h.strip_whitespace
    force_cdata = h.force_cdata
    xml_attribs = h.xml_attribs
    namespaces = h.namespaces
    if namespaces is not None and (not isinstance(namespaces, dict)
                                   or type(h.namespace_separator) is not str):
        return None
    if namespaces is None:
        cache = None
    else:
        build_name = h._build_name
        cache = {}
        keys_cache = {}

        def build(full_name):
            try:
                return cache[full_name]
            except KeyError:
                name = cache[full_name] = build_name(full_name)
                return name

    # Text runs go to one flat list (expat calls its append directly); each
    # open element remembers where its own runs begin. A child's runs are
    # taken off the end when it closes, so an element's runs are always the
    # tail of the list from its mark.
    texts = []
    characters = texts.append
    stack = []
    push_frame = stack.append
    pop_frame = stack.pop
    item = None

    def start(name, attrs):
        nonlocal item
        push_frame((item, len(texts)))
        if not attrs:
            item = None
            return
        keys = attrs[0::2]
        values = attrs[1::2]
        if h.namespace_declarations:
            keys.append('xmlns')
            values.append(h.namespace_declarations)
            h.namespace_declarations = dc()
        if not xml_attribs:
            item = None
        elif cache is None:
            item = dc(zip(map(ap_add, keys), values))
        else:
            t = tuple(keys)
            built = keys_cache.get(t)
            if built is None:
                built = keys_cache[t] = [ap + build(k) for k in keys]
            item = dc(zip(built, values))

    def end(name):
        nonlocal item
        if cache is not None:
            try:
                name = cache[name]
            except KeyError:
                name = build(name)
        it = item
        item, mark = pop_frame()
        n = len(texts) - mark
        if n:
            if n == 1:
                d = texts.pop()
            else:
                d = sep.join(texts[mark:])
                del texts[mark:]
            if strip:
                d = d.strip() or None
        else:
            d = None
        if it is None:
            if d and force_cdata:
                it = dc()
            else:
                it = d
                d = None
        elif not d:
            d = None
        if d is not None:
            if ck in it:
                old = it[ck]
                if isinstance(old, list):
                    old.append(d)
                else:
                    it[ck] = [old, d]
            elif force_all or (fl is not None and ck in fl):
                it[ck] = [d]
            else:
                it[ck] = d
        parent = item
        if parent is None:
            parent = item = dc()
        if name in parent:
            old = parent[name]
            if isinstance(old, list):
                old.append(it)
            else:
                parent[name] = [old, it]
        elif force_all or (fl is not None and name in fl):
            parent[name] = [it]
        else:
            parent[name] = it

    def comments(text):
        nonlocal item
        if strip:
            text = text.strip()
        parent = item
        if parent is None:
            parent = item = dc()
        if comment_key in parent:
            old = parent[comment_key]
            if isinstance(old, list):
                old.append(text)
            else:
                parent[comment_key] = [old, text]
        elif force_all or (fl is not None and comment_key in fl):
            parent[comment_key] = [text]
        else:
            parent[comment_key] = text

    def result():
        return item

    return start, end, characters, comments, result


def parse(xml_input, encoding=None, expat=expat, process_namespaces=False,
          namespace_separator=':', disable_entities=True, process_comments=False, **kwargs):
    """Parse the given XML input (a string, bytes, a file-like object or a
    generator of chunks) and convert it into a dictionary; see the project's
    documentation for the options."""
    handler = _DictSAXHandler(namespace_separator=namespace_separator,
                              **kwargs)
    if isinstance(xml_input, _unicode):
        if not encoding:
            encoding = 'utf-8'
        xml_input = xml_input.encode(encoding)
    if not process_namespaces:
        namespace_separator = None
    parser = expat.ParserCreate(
        encoding,
        namespace_separator
    )
    try:
        parser.ordered_attributes = True
    except AttributeError:
        # Jython's expat does not support ordered_attributes
        pass
    fast = _fast_handlers(handler)
    parser.StartNamespaceDeclHandler = handler.startNamespaceDecl
    if fast is None:
        parser.StartElementHandler = handler.startElement
        parser.EndElementHandler = handler.endElement
        parser.CharacterDataHandler = handler.characters
        if process_comments:
            parser.CommentHandler = handler.comments
    else:
        parser.StartElementHandler = fast[0]
        parser.EndElementHandler = fast[1]
        parser.CharacterDataHandler = fast[2]
        if process_comments:
            parser.CommentHandler = fast[3]
    parser.buffer_text = True
    if disable_entities:
        try:
            # Attempt to disable DTD in Jython's expat parser (Xerces-J).
            feature = "http://apache.org/xml/features/disallow-doctype-decl"
            parser._reader.setFeature(feature, True)
        except AttributeError:
            # For CPython / expat parser.
            # Anything not handled ends up here and entities aren't expanded.
            parser.DefaultHandler = lambda x: None
            # Expects an integer return; zero means failure -> expat.ExpatError.
            parser.ExternalEntityRefHandler = lambda *x: 1
    if hasattr(xml_input, 'read'):
        parser.ParseFile(xml_input)
    elif isgenerator(xml_input):
        for chunk in xml_input:
            parser.Parse(chunk,False)
        parser.Parse(b'',True)
    else:
        parser.Parse(xml_input, True)
    if fast is None:
        return handler.item
    return fast[4]()


def _process_namespace(name, namespaces, ns_sep=':', attr_prefix='@'):
    if not namespaces:
        return name
    try:
        ns, name = name.rsplit(ns_sep, 1)
    except ValueError:
        pass
    else:
        ns_res = namespaces.get(ns.strip(attr_prefix))
        name = '{}{}{}{}'.format(
            attr_prefix if ns.startswith(attr_prefix) else '',
            ns_res, ns_sep, name) if ns_res else name
    return name


def _emit(key, value, content_handler,
          attr_prefix='@',
          cdata_key='#text',
          depth=0,
          preprocessor=None,
          pretty=False,
          newl='\n',
          indent='\t',
          namespace_separator=':',
          namespaces=None,
          full_document=True,
          expand_iter=None):
    key = _process_namespace(key, namespaces, namespace_separator, attr_prefix)
    if preprocessor is not None:
        result = preprocessor(key, value)
        if result is None:
            return
        key, value = result
    if (not hasattr(value, '__iter__')
            or isinstance(value, _basestring)
            or isinstance(value, dict)):
        value = [value]
    for index, v in enumerate(value):
        if full_document and depth == 0 and index > 0:
            raise ValueError('document with multiple roots')
        if v is None:
            v = _dict()
        elif isinstance(v, bool):
            if v:
                v = _unicode('true')
            else:
                v = _unicode('false')
        elif not isinstance(v, dict):
            if expand_iter and hasattr(v, '__iter__') and not isinstance(v, _basestring):
                v = _dict(((expand_iter, v),))
            else:
                v = _unicode(v)
        if isinstance(v, _basestring):
            v = _dict(((cdata_key, v),))
        cdata = None
        attrs = _dict()
        children = []
        for ik, iv in v.items():
            if ik == cdata_key:
                cdata = iv
                continue
            if ik.startswith(attr_prefix):
                ik = _process_namespace(ik, namespaces, namespace_separator,
                                        attr_prefix)
                if ik == '@xmlns' and isinstance(iv, dict):
                    for k, v in iv.items():
                        attr = 'xmlns{}'.format(':{}'.format(k) if k else '')
                        attrs[attr] = _unicode(v)
                    continue
                if not isinstance(iv, _unicode):
                    iv = _unicode(iv)
                attrs[ik[len(attr_prefix):]] = iv
                continue
            children.append((ik, iv))
        if pretty:
            content_handler.ignorableWhitespace(depth * indent)
        content_handler.startElement(key, AttributesImpl(attrs))
        if pretty and children:
            content_handler.ignorableWhitespace(newl)
        for child_key, child_value in children:
            _emit(child_key, child_value, content_handler,
                  attr_prefix, cdata_key, depth+1, preprocessor,
                  pretty, newl, indent, namespaces=namespaces,
                  namespace_separator=namespace_separator,
                  expand_iter=expand_iter)
        if cdata is not None:
            content_handler.characters(cdata)
        if pretty and children:
            content_handler.ignorableWhitespace(depth * indent)
        content_handler.endElement(key)
        if pretty and depth:
            content_handler.ignorableWhitespace(newl)


# Options of `_emit` that the string-building emitter below takes as they are.
_FAST_OPTIONS = frozenset(('attr_prefix', 'cdata_key', 'preprocessor', 'pretty', 'newl',
                           'indent', 'namespace_separator', 'namespaces', 'expand_iter'))


# Characters that escaping or attribute quoting change.
_TEXT_SPECIAL = re.compile('[&<>]').search
_ATTR_SPECIAL = re.compile('[&<>\n\r\t"]').search


def _escape(data):
    # xml.sax.saxutils.escape
    if _TEXT_SPECIAL(data) is None:
        return data
    return data.replace('&', '&amp;').replace('>', '&gt;').replace('<', '&lt;')


def _quoteattr(data):
    # xml.sax.saxutils.quoteattr without its per-call dictionary merge.
    if _ATTR_SPECIAL(data) is None:
        return '"' + data + '"'
    data = (data.replace('&', '&amp;').replace('>', '&gt;').replace('<', '&lt;')
            .replace('\n', '&#10;').replace('\r', '&#13;').replace('\t', '&#9;'))
    if '"' in data:
        if "'" in data:
            return '"%s"' % data.replace('"', '&quot;')
        return "'%s'" % data
    return '"%s"' % data


def _emitter(parts, encoding, short_empty_elements, attr_prefix='@', cdata_key='#text',
             preprocessor=None, pretty=False, newl='\n', indent='\t',
             namespace_separator=':', namespaces=None, expand_iter=None):
    """An `_emit` that appends the text XMLGenerator would write to `parts`.

    An element's start tag is appended whole, '>' included; when short empty
    elements are asked for and nothing was written between the start tag
    and the end, the start tag is turned into '<name .../>' (XMLGenerator
    keeps it pending until something is written instead). Whatever
    XMLGenerator would write in one go after the start tag is at least one
    append here, so 'something was written' is 'parts grew'."""
    w = parts.append
    short = short_empty_elements
    nlen = len(attr_prefix)
    if not pretty:
        pretty = False
    # Indentation and line ends as XMLGenerator.ignorableWhitespace writes
    # them: bytes are decoded, empty ones write nothing.
    plain_ws = isinstance(indent, str) and isinstance(newl, str)
    pads = []

    def ws(content):
        if content:
            if not isinstance(content, str):
                content = str(content, encoding)
            w(content)

    def emit(key, value, depth, full_document=True):
        if namespaces:
            key = _process_namespace(key, namespaces, namespace_separator, attr_prefix)
        if preprocessor is not None:
            result = preprocessor(key, value)
            if result is None:
                return
            key, value = result
        t = type(value)
        if t is str or t is dict:
            value = (value,)
        elif t is not list and (not hasattr(value, '__iter__')
                                or isinstance(value, _basestring)
                                or isinstance(value, dict)):
            value = (value,)
        first = full_document and depth == 0
        if pretty and plain_ws:
            while len(pads) <= depth:
                pads.append(len(pads) * indent)
            pad = pads[depth]
            tail = newl if depth else ''
        index = 0
        for v in value:
            if first and index > 0:
                raise ValueError('document with multiple roots')
            index += 1
            if v is None:
                v = _dict()
            elif isinstance(v, bool):
                v = 'true' if v else 'false'
            elif not isinstance(v, dict):
                if expand_iter and hasattr(v, '__iter__') and not isinstance(v, _basestring):
                    v = _dict(((expand_iter, v),))
                else:
                    v = _unicode(v)
            if isinstance(v, _basestring):
                # Text only: no attributes, no children.
                if v:
                    element = '<' + key + '>' + _escape(v) + '</%s>' % key
                elif short:
                    element = '<' + key + '/>'
                else:
                    element = '<' + key + '></%s>' % key
                if not pretty:
                    w(element)
                elif plain_ws:
                    w(pad + element + tail)
                else:
                    ws(depth * indent)
                    w(element)
                    if depth:
                        ws(newl)
                continue
            cdata = None
            attrs = None
            children = []
            for ik, iv in v.items():
                if ik == cdata_key:
                    cdata = iv
                    continue
                if ik.startswith(attr_prefix):
                    if namespaces:
                        ik = _process_namespace(ik, namespaces, namespace_separator,
                                                attr_prefix)
                    if attrs is None:
                        attrs = {}
                    if ik == '@xmlns' and isinstance(iv, dict):
                        for k, u in iv.items():
                            attr = 'xmlns{}'.format(':{}'.format(k) if k else '')
                            attrs[attr] = _unicode(u)
                        continue
                    if not isinstance(iv, _unicode):
                        iv = _unicode(iv)
                    attrs[ik[nlen:]] = iv
                    continue
                children.append((ik, iv))
            start = '<' + key
            if attrs:
                start += ''.join([' %s=%s' % (name, _quoteattr(val))
                                  for name, val in attrs.items()])
            # `mark`: the length of `parts` right after the start tag (-1
            # when something follows it for sure).
            if not pretty:
                head = start
                w(start + '>')
                mark = len(parts)
            elif plain_ws:
                head = pad + start
                if children and newl:
                    w(head + '>' + newl)
                    mark = -1
                else:
                    w(head + '>')
                    mark = len(parts)
            else:
                ws(depth * indent)
                head = start
                w(start + '>')
                mark = len(parts)
                if children:
                    ws(newl)
            for child_key, child_value in children:
                emit(child_key, child_value, depth + 1)
            if cdata is not None and cdata:
                if not isinstance(cdata, str):
                    cdata = str(cdata, encoding)
                w(_escape(cdata))
            if pretty and children:
                ws(depth * indent)
            if short and len(parts) == mark:
                parts[mark - 1] = head + '/>'
            else:
                w('</%s>' % key)
            if pretty and depth:
                ws(newl)

    return emit


def unparse(input_dict, output=None, encoding='utf-8', full_document=True,
            short_empty_elements=False,
            **kwargs):
    """Emit an XML document for the given `input_dict` (reverse of `parse`).

    The resulting XML document is returned as a string, but if `output` (a
    file-like object) is specified, it is written there instead.

    Dictionary keys prefixed with `attr_prefix` (default=`'@'`) are interpreted
    as XML node attributes, whereas keys equal to `cdata_key`
    (default=`'#text'`) are treated as character data.

    The `pretty` parameter (default=`False`) enables pretty-printing. In this
    mode, lines are terminated with `'\\n'` and indented with `'\\t'`, but this
    can be customized with the `newl` and `indent` parameters.

    """
    if full_document and len(input_dict) != 1:
        raise ValueError('Document must have exactly one root.')
    if output is None and _FAST_OPTIONS.issuperset(kwargs):
        parts = []
        if full_document:
            parts.append('<?xml version="1.0" encoding="%s"?>\n' % encoding)
        emit = _emitter(parts, encoding, short_empty_elements, **kwargs)
        for key, value in input_dict.items():
            emit(key, value, 0, full_document)
        return ''.join(parts)
    # Writing to a file-like object (or with options such as `depth`): the
    # reference's way, through XMLGenerator.
    must_return = False
    if output is None:
        output = StringIO()
        must_return = True
    if short_empty_elements:
        content_handler = XMLGenerator(output, encoding, True)
    else:
        content_handler = XMLGenerator(output, encoding)
    if full_document:
        content_handler.startDocument()
    for key, value in input_dict.items():
        _emit(key, value, content_handler, full_document=full_document,
              **kwargs)
    if full_document:
        content_handler.endDocument()
    if must_return:
        value = output.getvalue()
        try:  # pragma no cover
            value = value.decode(encoding)
        except AttributeError:  # pragma no cover
            pass
        return value


if __name__ == '__main__':  # pragma: no cover
    import sys
    import marshal
    try:
        stdin = sys.stdin.buffer
        stdout = sys.stdout.buffer
    except AttributeError:
        stdin = sys.stdin
        stdout = sys.stdout

    (item_depth,) = sys.argv[1:]
    item_depth = int(item_depth)

    def handle_item(path, item):
        marshal.dump((path, item), stdout)
        return True

    try:
        root = parse(stdin,
                     item_depth=item_depth,
                     item_callback=handle_item,
                     dict_constructor=dict)
        if item_depth == 0:
            handle_item([], root)
    except KeyboardInterrupt:
        pass
