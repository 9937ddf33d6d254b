# nbgrader's settings for the whole class: installed by tljh/setup.sh as the students' environment's
# etc/jupyter/nbgrader_config.py (z2jh: baked into the image by z2jh/Dockerfile). One course, one exchange folder
# that every account may write to; the teacher's own course folder (source/, release/, submitted/, gradebook.db)
# stays in the teacher's home, where `nbgrader` commands are run.
c = get_config()  # noqa: F821 (given by nbgrader when it loads this file)
c.CourseDirectory.course_id = "tool-use"
c.Exchange.root = "/srv/nbgrader/exchange"
