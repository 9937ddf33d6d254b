"""Chapter 09: measuring tool use. An evaluation set, a scorer (AST match), a runner and a report."""

from agentkit.evaluation.dataset import CATEGORIES, SPLITS, Case, ExpectedCall, load_cases, load_functions
from agentkit.evaluation.report import class_table, cost, failures, scores, table
from agentkit.evaluation.runner import Outcome, evaluate, run_case, run_cases
from agentkit.evaluation.scorer import Verdict, score

__all__ = ["CATEGORIES", "SPLITS", "Case", "ExpectedCall", "Outcome", "Verdict", "class_table", "cost", "evaluate", "failures",
           "load_cases", "load_functions", "run_case", "run_cases", "score", "scores", "table"]
