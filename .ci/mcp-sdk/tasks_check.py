"""MCP 2025-11-25 tasks as the official Python SDK's client (mcp 1.x) sees them, on
`ruckus-mcp` over standard input and output and over streamable HTTP, and on a reference
server built on the SDK's own task support (reference_server.py). The same script drives
each one and writes down what it saw (a trace); the check passes when the SDK accepts every
answer (its types validate each one) and the traces of `ruckus-mcp` equal the reference's.

    python tasks_check.py PATH/TO/ruckus-mcp
"""

import asyncio
import json
import os
import subprocess
import sys
import threading
import warnings
from contextlib import asynccontextmanager

import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client
from mcp.shared.exceptions import McpError

# The SDK marks its 2025-11-25 task API deprecated (the newer drafts moved tasks to an
# extension); it is still the revision this check is about.
warnings.filterwarnings("ignore", category=DeprecationWarning)

RELATED = "io.modelcontextprotocol/related-task"
VENUE = {"name": "Tasked by the SDK", "address": {"country": "US", "city": "Sunnyvale", "addressLine": "1 Main St"}}


class Asker:
    """The user: accepts every question, and keeps the task each one names."""

    def __init__(self) -> None:
        self.asked: list[str | None] = []

    async def __call__(self, context, params: types.ElicitRequestParams):
        meta = params.model_dump(by_alias=True).get("_meta") or {}
        self.asked.append((meta.get(RELATED) or {}).get("taskId"))
        return types.ElicitResult(action="accept", content={"confirm": True})


async def poll(session: ClientSession, task_id: str) -> tuple[list[str], types.GetTaskResult]:
    """tasks/get until the task ends or needs input; the statuses seen, in order, without
    repeats, and the last answer."""
    seen: list[str] = []
    while True:
        got = await session.experimental.get_task(task_id)
        if not seen or seen[-1] != got.status:
            seen.append(got.status)
        if got.status not in ("working",):
            return seen, got
        await asyncio.sleep(0.05)


async def error_code(call) -> int | str | None:
    """The JSON-RPC error code `call` ends with; `None` when it succeeds, and "not a task"
    when the answer is not the one asked for (a plain tool result instead of a task)."""
    try:
        await call
    except McpError as e:
        return e.error.code
    except ValueError:
        return "not a task"
    return None


async def run_task(session, tool, args, asker) -> tuple[dict, types.CallToolResult]:
    created = await session.experimental.call_tool_as_task(tool, args, ttl=60_000)
    task_id = created.task.taskId
    trace = {"created": created.task.status}
    # On input_required, tasks/result brings the question (then the result); else it waits
    # for the end.
    _, last = await poll(session, task_id)
    result = await session.experimental.get_task_result(task_id, types.CallToolResult)
    _, last = await poll(session, task_id)
    # Which statuses a poll happens to see depends on timing; the end does not.
    trace["final"] = last.status
    trace["result_names_task"] = (result.meta or {}).get(RELATED, {}).get("taskId") == task_id
    trace["isError"] = bool(result.isError)
    trace["asked_names_task"] = [a == task_id for a in asker.asked]
    asker.asked.clear()
    trace["cancel_ended"] = await error_code(session.experimental.cancel_task(task_id))
    return trace, result


async def drive(session: ClientSession, asker: Asker) -> dict:
    init = await session.initialize()
    tasks = init.capabilities.tasks
    trace: dict = {
        "capability": bool(tasks and tasks.requests and tasks.requests.tools and tasks.requests.tools.call is not None),
        "cancel_and_list": bool(tasks and tasks.cancel is not None and tasks.list is not None),
    }
    tools = await session.list_tools()
    support = {t.name: (t.execution.taskSupport if t.execution else None) for t in tools.tools}
    trace["taskSupport"] = {name: support.get(name) for name in ("invoke_read", "invoke_write", "invoke_delete")}
    trace["write"], result = await run_task(session, "invoke_write", {"operation": "create_venue", "body": VENUE}, asker)
    created = json.loads(result.content[0].text)
    venue_id = created.get("id")
    trace["write_gives_id"] = isinstance(venue_id, str)
    args = {"operation": "delete_venue", "params": {"venueId": venue_id}}
    trace["delete"], _ = await run_task(session, "invoke_delete", args, asker)
    bad = {"operation": "create_venue", "body": {"name": 7}}
    trace["failed_write"], _ = await run_task(session, "invoke_write", bad, asker)
    read = session.experimental.call_tool_as_task("invoke_read", {"operation": "query_venues"})
    trace["read_as_task"] = await error_code(read)
    listed = await session.experimental.list_tasks()
    trace["listed"] = len(listed.tasks)
    trace["unknown_task"] = await error_code(session.experimental.get_task("no-such-task"))
    return trace


# Where ruckus-mcp differs from the reference on purpose: the value it has, and why.
DELIBERATE = {
    "read_as_task": (
        -32601,
        "2025-11-25: a tool whose taskSupport is forbidden, called as a task, SHOULD be -32601; "
        "the SDK runs it as a plain call",
    ),
    "failed_write.final": (
        "failed",
        "2025-11-25 counts a tool result with isError as a failed task; the SDK completes it",
    ),
}


def flat(trace: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in trace.items():
        if isinstance(value, dict) and key != "taskSupport":
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


@asynccontextmanager
async def stdio(command: list[str]):
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        yield read, write


@asynccontextmanager
async def http(binary: str):
    server = subprocess.Popen(
        [binary, "--local", "--allow-writes", "--allow-deletes", "--http", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stderr.readline()
        url = line.split("serving MCP at ", 1)[1].strip()
        # Keep reading what it logs, so that a full pipe never stops it.
        threading.Thread(target=server.stderr.read, daemon=True).start()
        async with streamablehttp_client(url) as (read, write, _):
            yield read, write
    finally:
        server.kill()
        server.wait()


async def trace_of(transport) -> dict:
    asker = Asker()
    async with transport as (read, write):
        async with ClientSession(read, write, elicitation_callback=asker) as session:
            return await drive(session, asker)


async def main() -> int:
    binary = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    reference = await trace_of(stdio([sys.executable, os.path.join(here, "reference_server.py")]))
    ours = {
        "stdio": await trace_of(stdio([binary, "--local", "--allow-writes", "--allow-deletes"])),
        "http": await trace_of(http(binary)),
    }
    print("reference:", json.dumps(reference, sort_keys=True))
    reference = flat(reference)
    failed = False
    for name, trace in ours.items():
        print(f"ruckus-mcp {name}:", json.dumps(trace, sort_keys=True))
        trace = flat(trace)
        for key in sorted(set(reference) | set(trace)):
            if reference.get(key) == trace.get(key):
                continue
            why = DELIBERATE.get(key)
            if why and trace.get(key) == why[0]:
                print(f"  {key}: {trace.get(key)!r}, the reference {reference.get(key)!r} ({why[1]})")
                continue
            failed = True
            print(f"  differs on {key}: reference {reference.get(key)!r}, ruckus-mcp {trace.get(key)!r}")
    print("tasks check:", "FAILED" if failed else "the same as the reference")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
