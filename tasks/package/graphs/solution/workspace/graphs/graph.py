"""The graph."""

from collections import deque


class GraphError(Exception):
    """A query about a node or edge the graph does not have."""


class Graph:
    """An undirected simple graph. Nodes must be hashable and mutually orderable."""

    def __init__(self):
        self._adj = {}  # node -> set of neighbours; nodes stay after their edges go
        self._sorted = {}  # node -> sorted neighbour list, cached until it changes
        self._edges = 0

    def add_edge(self, a, b):
        """Add the edge a-b; returns False if it was already there. No self-loops."""
        if a == b:
            raise GraphError(f"self-loop on {a!r}")
        na = self._adj.get(a)
        if na is not None and b in na:
            return False
        self._adj.setdefault(a, set()).add(b)
        self._adj.setdefault(b, set()).add(a)
        self._sorted.pop(a, None)
        self._sorted.pop(b, None)
        self._edges += 1
        return True

    def remove_edge(self, a, b):
        na = self._adj.get(a)
        if na is None or b not in na:
            raise GraphError(f"no edge {a!r}-{b!r}")
        na.discard(b)
        self._adj[b].discard(a)
        self._sorted.pop(a, None)
        self._sorted.pop(b, None)
        self._edges -= 1

    def has_edge(self, a, b):
        na = self._adj.get(a)
        return na is not None and b in na

    def _sorted_neighbors(self, node):
        s = self._sorted.get(node)
        if s is None:
            s = self._sorted[node] = sorted(self._adj[node])
        return s

    def neighbors(self, node):
        """Sorted neighbours of `node`."""
        if node not in self._adj:
            raise GraphError(f"unknown node {node!r}")
        return list(self._sorted_neighbors(node))

    def degree(self, node):
        if node not in self._adj:
            raise GraphError(f"unknown node {node!r}")
        return len(self._adj[node])

    def nodes(self):
        """Every node that has (or had) an edge, sorted."""
        return sorted(self._adj)

    def shortest_path(self, start, goal):
        """A shortest path start..goal as a list of nodes, or None when there is
        none. Among several, the one found by breadth-first search visiting
        neighbours in sorted order."""
        for n in (start, goal):
            if n not in self._adj:
                raise GraphError(f"unknown node {n!r}")
        previous = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            if node == goal:
                path = []
                while node is not None:
                    path.append(node)
                    node = previous[node]
                return path[::-1]
            for nb in self._sorted_neighbors(node):
                if nb not in previous:
                    previous[nb] = node
                    queue.append(nb)
        return None

    def components(self):
        """Connected components as sorted lists, ordered by their smallest node."""
        seen = set()
        comps = []
        for node in sorted(self._adj):
            if node in seen:
                continue
            seen.add(node)
            comp = [node]
            stack = [node]
            while stack:
                for nb in self._adj[stack.pop()]:
                    if nb not in seen:
                        seen.add(nb)
                        comp.append(nb)
                        stack.append(nb)
            comps.append(sorted(comp))
        return comps

    def __len__(self):
        return self._edges
