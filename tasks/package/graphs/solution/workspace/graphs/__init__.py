"""Undirected graphs over orderable, hashable nodes."""

from .graph import Graph, GraphError

__all__ = ["Graph", "GraphError"]
