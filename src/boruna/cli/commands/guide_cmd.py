"""`boruna guide [TOPIC]`: the texts written for agents, as the MCP resources serve them:
the language guide (default), the code index, the libraries, the templates."""
from __future__ import annotations

from boruna.cli.console import Console

TOPICS = ("language", "codes", "libs", "templates", "workflows")


def cmd_guide(args, console: Console) -> int:
    from boruna.assets.directories import default_libs_dir, default_templates_dir
    from boruna.service import agent_docs

    uri = {"language": agent_docs.GUIDE_URI, "codes": agent_docs.CODES_URI,
           "libs": agent_docs.LIBS_URI, "templates": agent_docs.TEMPLATES_URI,
           "workflows": agent_docs.WORKFLOWS_URI}[args.topic]
    libs_dir = args.libs_dir if args.libs_dir is not None else default_libs_dir()
    templates_dir = args.dir if args.dir is not None else default_templates_dir()
    console.out(agent_docs.document(uri, libs_dir=libs_dir,
                                    templates_dir=templates_dir).rstrip("\n"))
    return 0
