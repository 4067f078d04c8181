"""A reference MCP 2025-11-25 task server built on the official Python SDK's own task
support (mcp 1.x, `server.experimental.enable_tasks()`), with the three tools the check
calls under the names `ruckus-mcp` gives them: `invoke_write` answers a created id,
`invoke_delete` asks the user first (an elicitation inside the task), `invoke_read` is not a
task tool. `tasks_check.py` drives this server and `ruckus-mcp` alike and compares what each
does."""

import json
import warnings

import anyio
import mcp.types as types
from mcp.server.experimental.task_context import ServerTaskContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

warnings.filterwarnings("ignore", category=DeprecationWarning)

server = Server("reference-tasks")
server.experimental.enable_tasks()

SCHEMA = {"type": "object", "properties": {"operation": {"type": "string"}}}


def tool(name: str, support: str) -> types.Tool:
    return types.Tool(
        name=name,
        inputSchema=SCHEMA,
        execution=types.ToolExecution(taskSupport=support),
    )


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        tool("invoke_read", "forbidden"),
        tool("invoke_write", "optional"),
        tool("invoke_delete", "optional"),
    ]


def text(value: dict, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(value))], isError=error
    )


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> types.CallToolResult | types.CreateTaskResult:
    ctx = server.request_context
    if name == "invoke_read":
        return text({"rows": []})
    body = arguments.get("body") or {}

    async def work(task: ServerTaskContext) -> types.CallToolResult:
        await task.update_status("waiting for its activity")
        await anyio.sleep(0.3)
        if name == "invoke_delete":
            answer = await task.elicit(
                message="Delete it? This cannot be undone.",
                requestedSchema={
                    "type": "object",
                    "properties": {"confirm": {"type": "boolean"}},
                    "required": ["confirm"],
                },
            )
            if answer.action != "accept" or not (answer.content or {}).get("confirm"):
                return text({"declined": True})
            return text({"deleted": True})
        if not isinstance(body.get("name"), str):
            return text({"error": "name must be a string"}, error=True)
        return text({"id": "venue-1"})

    return await ctx.experimental.run_task(work)


async def serve() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(serve)
