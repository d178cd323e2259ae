"""The graph."""


class GraphError(Exception):
    """A query about a node or edge the graph does not have."""


class Graph:
    """An undirected simple graph. Nodes must be hashable and mutually orderable."""

    def __init__(self):
        self._edges = []  # [a, b] pairs, each edge once, in insertion order
        self._nodes = []

    def add_edge(self, a, b):
        """Add the edge a-b; returns False if it was already there. No self-loops."""
        if a == b:
            raise GraphError(f"self-loop on {a!r}")
        if self.has_edge(a, b):
            return False
        self._edges.append([a, b])
        for n in (a, b):
            if n not in self._nodes:
                self._nodes.append(n)
        return True

    def remove_edge(self, a, b):
        for i, (x, y) in enumerate(self._edges):
            if (x == a and y == b) or (x == b and y == a):
                del self._edges[i]
                return
        raise GraphError(f"no edge {a!r}-{b!r}")

    def has_edge(self, a, b):
        return any((x == a and y == b) or (x == b and y == a) for x, y in self._edges)

    def _check(self, node):
        if node not in self._nodes:
            raise GraphError(f"unknown node {node!r}")

    def neighbors(self, node):
        """Sorted neighbours of `node`."""
        self._check(node)
        out = []
        for x, y in self._edges:
            if x == node:
                out.append(y)
            elif y == node:
                out.append(x)
        return sorted(out)

    def degree(self, node):
        return len(self.neighbors(node))

    def nodes(self):
        """Every node that has (or had) an edge, sorted."""
        return sorted(self._nodes)

    def shortest_path(self, start, goal):
        """A shortest path start..goal as a list of nodes, or None when there is
        none. Among several, the one found by breadth-first search visiting
        neighbours in sorted order."""
        self._check(start)
        self._check(goal)
        previous = {start: None}
        queue = [start]
        while queue:
            node = queue.pop(0)
            if node == goal:
                path = []
                while node is not None:
                    path.append(node)
                    node = previous[node]
                return path[::-1]
            for nb in self.neighbors(node):
                if nb not in previous:
                    previous[nb] = node
                    queue.append(nb)
        return None

    def components(self):
        """Connected components as sorted lists, ordered by their smallest node."""
        seen = []
        comps = []
        for node in self.nodes():
            if node in seen:
                continue
            comp = []
            stack = [node]
            while stack:
                n = stack.pop()
                if n in seen:
                    continue
                seen.append(n)
                comp.append(n)
                stack.extend(self.neighbors(n))
            comps.append(sorted(comp))
        return comps

    def __len__(self):
        return len(self._edges)
