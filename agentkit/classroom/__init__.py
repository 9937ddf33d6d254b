"""The classroom: what a teacher runs around the notebooks (machinery, not part of the teaching core).

- `refresh`: re-execute a notebook in place, offline, with stable metadata (`agentkit refresh`);
- `student`: the student edition, solutions replaced by stubs (`agentkit classroom student`);
- `exercises`: which exercises a notebook has, found from its checks module (`agentkit/checks/chNN.py`);
- `grading`: run each submitted notebook in a throwaway, confined kernel and record every check's verdict
  (`agentkit classroom grade`); `sandbox` confines the kernel; `reports` writes grades.csv and feedback;
- `nbgrader`: the course as nbgrader source notebooks (`agentkit classroom nbgrader`);
- `site`: the course as a static web site for readers (`agentkit site`), with Mermaid from `site_mermaid`;
- `hub`, `local_hub`: a class on JupyterHub, driven as its people would, and a local hub to try it on;
- `new_project`: a learner's own agent project, from `project_template/` (`agentkit new NAME`, chapter 13).
"""

from agentkit.classroom.refresh import KERNEL_NAME, execute, kernelspec, offline_environment, refresh, sanitizers, stabilise
from agentkit.classroom.student import CHECK, SOLUTION, stub, student_edition

__all__ = ["CHECK", "KERNEL_NAME", "SOLUTION", "execute", "kernelspec", "offline_environment", "refresh", "sanitizers",
           "stabilise", "stub", "student_edition"]
