"""Chapter 09: measuring tool use. An evaluation set, a scorer (AST match), a runner and a report."""

from agentkit.evaluation.dataset import CATEGORIES, SPLITS, Case, ExpectedCall, load_cases, load_functions

__all__ = ["CATEGORIES", "SPLITS", "Case", "ExpectedCall", "load_cases", "load_functions"]
