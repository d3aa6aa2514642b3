"""MCP resources and prompts: the texts of `boruna.service.agent_docs`, through the SDK.

resources/list lists the guide, the code index, every code, the libraries and the templates;
resources/templates/list offers `boruna://codes/{code}`; resources/read and prompts/get
answer from the service. Unknown URIs, prompts and missing prompt arguments are JSON-RPC
invalid-params errors (-32602, the code current MCP uses for a resource that does not exist).
"""
from __future__ import annotations

import mcp_types as types

from mcp.shared.exceptions import MCPError

from boruna.service import agent_docs
from boruna.service.errors import InvalidParams

CODE_TEMPLATE = types.ResourceTemplate(
    name="code", title="Diagnostic code explanation", uri_template="boruna://codes/{code}",
    description="Explanation, erroneous example and fix for one diagnostic code (e.g. E003).",
    mime_type=agent_docs.MIME_TYPE)


class Documents:
    """The resource and prompt handlers bound to the server's libs and templates directories.

    `run_blocking(fn)` (a coroutine function) runs `fn` off the event loop, on the server's
    quick lane, and returns what it returned (or the exception it raised)."""

    def __init__(self, templates_dir, libs_dir, run_blocking):
        self.templates_dir = templates_dir
        self.libs_dir = libs_dir
        self._run_blocking = run_blocking
        self._resources = [types.Resource(mime_type=agent_docs.MIME_TYPE, **entry)
                           for entry in agent_docs.documents()]
        self._prompts = [types.Prompt(name=p["name"], title=p["title"],
                                      description=p["description"],
                                      arguments=[types.PromptArgument(**a) for a in p["arguments"]])
                         for p in agent_docs.PROMPTS]

    def _document(self, uri: str):
        return agent_docs.document(uri, libs_dir=self.libs_dir, templates_dir=self.templates_dir)

    async def _read(self, uri: str) -> str:
        text = await self._run_blocking(lambda: self._document(uri))
        if isinstance(text, BaseException):
            raise MCPError(code=types.INTERNAL_ERROR, message=f"cannot read {uri}: {text}")
        if text is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"resource not found: {uri}")
        return text

    async def list_resources(self, ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=self._resources)

    async def list_templates(self, ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[CODE_TEMPLATE])

    async def read_resource(self, ctx, params: types.ReadResourceRequestParams):
        uri = str(params.uri)
        text = await self._read(uri)
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type=agent_docs.MIME_TYPE, text=text)])

    async def list_prompts(self, ctx, params) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=self._prompts)

    async def get_prompt(self, ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        built = await self._run_blocking(
            lambda: agent_docs.prompt(params.name, params.arguments, libs_dir=self.libs_dir))
        if isinstance(built, (agent_docs.PromptError, InvalidParams)):
            raise MCPError(code=types.INVALID_PARAMS, message=built.message)
        if isinstance(built, BaseException):
            raise MCPError(code=types.INTERNAL_ERROR, message=f"cannot build the prompt: {built}")
        messages = []
        for part in built["messages"]:
            if "text" in part:
                content = types.TextContent(type="text", text=part["text"])
            else:
                content = types.EmbeddedResource(type="resource", resource=types.TextResourceContents(
                    uri=part["uri"], mime_type=agent_docs.MIME_TYPE, text=await self._read(part["uri"])))
            messages.append(types.PromptMessage(role="user", content=content))
        return types.GetPromptResult(description=built["description"], messages=messages)
