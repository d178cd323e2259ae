
__all__ = ['Composer', 'ComposerError']

from .error import MarkedYAMLError
from .events import *
from .nodes import *

class ComposerError(MarkedYAMLError):
    pass

class Composer:

    def __init__(self):
        self.anchors = {}

    def check_node(self):
        # Drop the STREAM-START event.
        if self.check_event(StreamStartEvent):
            self.get_event()

        # If there are more documents available?
        return not self.check_event(StreamEndEvent)

    def get_node(self):
        # Get the root node of the next document.
        if not self.check_event(StreamEndEvent):
            return self.compose_document()

    def get_single_node(self):
        # Drop the STREAM-START event.
        self.get_event()

        # Compose a document if the stream is not empty.
        document = None
        if not self.check_event(StreamEndEvent):
            document = self.compose_document()

        # Ensure that the stream contains no more documents.
        if not self.check_event(StreamEndEvent):
            event = self.get_event()
            raise ComposerError("expected a single document in the stream",
                    document.start_mark, "but found another document",
                    event.start_mark)

        # Drop the STREAM-END event.
        self.get_event()

        return document

    def compose_document(self):
        # Drop the DOCUMENT-START event.
        self.get_event()

        # Compose the root node.
        node = self.compose_node(None, None)

        # Drop the DOCUMENT-END event.
        self.get_event()

        self.anchors = {}
        return node

    def compose_node(self, parent, index):
        event = self.current_event
        if event is None:
            event = self.peek_event()
        cls = event.__class__
        if cls is AliasEvent or (cls is not ScalarEvent and isinstance(event, AliasEvent)):
            self.current_event = None
            anchor = event.anchor
            if anchor not in self.anchors:
                raise ComposerError(None, None, "found undefined alias %r"
                        % anchor, event.start_mark)
            return self.anchors[anchor]
        anchor = event.anchor
        if anchor is not None:
            if anchor in self.anchors:
                raise ComposerError("found duplicate anchor %r; first occurrence"
                        % anchor, self.anchors[anchor].start_mark,
                        "second occurrence", event.start_mark)
        paths = self.yaml_path_resolvers
        if paths:
            self.descend_resolver(parent, index)
        if cls is ScalarEvent:
            # compose_scalar_node, inline.
            self.current_event = None
            tag = event.tag
            if tag is None or tag == '!':
                tag = self.resolve(ScalarNode, event.value, event.implicit)
            node = ScalarNode(tag, event.value,
                    event.start_mark, event.end_mark, style=event.style)
            if anchor is not None:
                self.anchors[anchor] = node
        elif cls is MappingStartEvent:
            node = self.compose_mapping_node(anchor)
        elif cls is SequenceStartEvent:
            node = self.compose_sequence_node(anchor)
        elif isinstance(event, ScalarEvent):
            node = self.compose_scalar_node(anchor)
        elif isinstance(event, SequenceStartEvent):
            node = self.compose_sequence_node(anchor)
        elif isinstance(event, MappingStartEvent):
            node = self.compose_mapping_node(anchor)
        if paths:
            self.ascend_resolver()
        return node

    def compose_scalar_node(self, anchor):
        event = self.get_event()
        tag = event.tag
        if tag is None or tag == '!':
            tag = self.resolve(ScalarNode, event.value, event.implicit)
        node = ScalarNode(tag, event.value,
                event.start_mark, event.end_mark, style=event.style)
        if anchor is not None:
            self.anchors[anchor] = node
        return node

    def compose_sequence_node(self, anchor):
        start_event = self.get_event()
        tag = start_event.tag
        if tag is None or tag == '!':
            tag = self.resolve(SequenceNode, None, start_event.implicit)
        node = SequenceNode(tag, [],
                start_event.start_mark, None,
                flow_style=start_event.flow_style)
        if anchor is not None:
            self.anchors[anchor] = node
        index = 0
        append = node.value.append
        compose_node = self.compose_node
        while True:
            event = self.current_event
            if event is None:
                event = self.peek_event()
            if isinstance(event, SequenceEndEvent):
                break
            append(compose_node(node, index))
            index += 1
        self.current_event = None
        node.end_mark = event.end_mark
        return node

    def compose_mapping_node(self, anchor):
        start_event = self.get_event()
        tag = start_event.tag
        if tag is None or tag == '!':
            tag = self.resolve(MappingNode, None, start_event.implicit)
        node = MappingNode(tag, [],
                start_event.start_mark, None,
                flow_style=start_event.flow_style)
        if anchor is not None:
            self.anchors[anchor] = node
        append = node.value.append
        compose_node = self.compose_node
        while True:
            event = self.current_event
            if event is None:
                event = self.peek_event()
            if isinstance(event, MappingEndEvent):
                break
            item_key = compose_node(node, None)
            item_value = compose_node(node, item_key)
            append((item_key, item_value))
        self.current_event = None
        node.end_mark = event.end_mark
        return node
