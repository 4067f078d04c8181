//! An `rmcp` client driving the built `ruckus-mcp` over stdio, and what the tests check with.

#![allow(dead_code)]

pub mod seeded;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    ElicitRequestParams, ElicitResult, ElicitationAction, GetTaskParams, Implementation,
    InputRequest, InputResponses, ProtocolVersion, TaskPayload,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService,
};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ErrorData as McpError, ServiceExt};
use serde_json::{Value, json};
use tokio::process::Command;

/// The test client: answers confirmations as told and keeps their messages.
#[derive(Clone, Default)]
pub struct Agent {
    /// Whether the user confirms (`false`: declines).
    pub confirm: Arc<AtomicBool>,
    pub asked: Arc<Mutex<Vec<String>>>,
    /// Declares elicitation and tasks.
    pub capable: bool,
    /// The protocol version asked for in `initialize` (else the SDK's latest).
    pub version: Option<ProtocolVersion>,
}

impl Agent {
    pub fn capable() -> Agent {
        Agent {
            capable: true,
            ..Agent::default()
        }
    }
}

impl Agent {
    /// The user's answer to `message`.
    fn answer(&self, message: &str) -> ElicitResult {
        self.asked.lock().unwrap().push(message.to_owned());
        if self.confirm.load(Ordering::SeqCst) {
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true}))
        } else {
            ElicitResult::new(ElicitationAction::Decline)
        }
    }
}

impl ClientHandler for Agent {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.capable {
            ClientCapabilities::builder()
                .enable_elicitation()
                .enable_tasks()
                .build()
        } else {
            ClientCapabilities::default()
        };
        let config = ClientConfig::new(capabilities, Implementation::new("ruckus-mcp-test", "0"));
        match &self.version {
            Some(version) => config.with_protocol_version(version.clone()),
            None => config,
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        match &request {
            ElicitRequestParams::FormElicitationParams { message, .. } => Ok(self.answer(message)),
            _ => Ok(ElicitResult::new(ElicitationAction::Decline)),
        }
    }
}

pub type Session = RunningService<RoleClient, Agent>;

/// `ruckus-mcp` with `args`, and the environment `env` (owned).
pub fn command_with(args: &[&str], env: &[(String, String)]) -> Command {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    command(args, &env)
}

/// `ruckus-mcp` with `args`, and the environment `env`.
pub fn command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ruckus-mcp"));
    command.args(args);
    for name in [
        "RUCKUS_MCP_ALLOW_WRITES",
        "RUCKUS_MCP_ALLOW_DELETES",
        "RUCKUS_MCP_TENANTS",
    ] {
        command.env_remove(name);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command
}

/// A session of `agent` with the server `command` starts, on protocol 2026-07-28 (delete
/// confirmations as input requests of the tool call).
pub async fn start(agent: Agent, command: Command) -> Session {
    let transport = TokioChildProcess::new(command).expect("ruckus-mcp starts");
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    agent
        .serve_with_lifecycle(transport, lifecycle)
        .await
        .expect("MCP session")
}

/// A session with the `initialize` handshake of older clients (confirmations as requests).
pub async fn start_legacy(agent: Agent, command: Command) -> Session {
    let transport = TokioChildProcess::new(command).expect("ruckus-mcp starts");
    agent.serve(transport).await.expect("MCP session")
}

/// Calls `tool` with `args` (input requests answered by the agent).
pub async fn call(session: &Session, tool: &str, args: Value) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments are an object")
    };
    session
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .expect("tools/call answers")
}

/// The text of a result.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The JSON of a result.
pub fn json_of(result: &CallToolResult) -> Value {
    serde_json::from_str(&text(result)).unwrap_or_else(|e| panic!("{e}: {}", text(result)))
}

/// Calls `tool` once per round, answering input requests as `agent` does (as `call_tool`
/// does, but also returning a task the server makes of the call).
pub async fn call_rounds(
    session: &Session,
    agent: &Agent,
    tool: &str,
    args: Value,
) -> CallToolResponse {
    let Value::Object(args) = args else {
        panic!("arguments are an object")
    };
    let mut params = CallToolRequestParams::new(tool.to_owned()).with_arguments(args);
    loop {
        match session
            .call_tool_once(params.clone())
            .await
            .expect("tools/call answers")
        {
            CallToolResponse::InputRequired(asked) => {
                let mut responses = InputResponses::new();
                for (key, request) in asked.input_requests.unwrap_or_default() {
                    if let InputRequest::Elicitation(request) = request
                        && let ElicitRequestParams::FormElicitationParams { message, .. } =
                            &request.params
                    {
                        let answer = agent.answer(message);
                        responses.insert(key, serde_json::to_value(answer).unwrap());
                    }
                }
                params.input_responses = Some(responses);
                params.request_state = asked.request_state;
            }
            other => return other,
        }
    }
}

/// Calls `tool` expecting a task; polls it to its end and returns its final payload.
pub async fn run_task(session: &Session, agent: &Agent, tool: &str, args: Value) -> TaskPayload {
    let response = call_rounds(session, agent, tool, args).await;
    let CallToolResponse::Task(created) = response else {
        panic!("expected a task, got {response:?}");
    };
    let id = created.task.task_id;
    // The server bounds the wait for the activity (its wait options), so this ends.
    loop {
        let got = session
            .peer()
            .get_task(GetTaskParams::new(id.clone()))
            .await
            .unwrap();
        if got.task.status().is_terminal() {
            return got.task.payload;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The tool result a completed task carries.
pub fn task_result(payload: TaskPayload) -> CallToolResult {
    match payload {
        TaskPayload::Completed { result } => serde_json::from_value(Value::Object(result)).unwrap(),
        other => panic!("expected a completed task, got {other:?}"),
    }
}

/// A venue body the simulator accepts.
pub fn venue(name: &str) -> Value {
    json!({"name": name, "address": {"country": "US", "city": "Sunnyvale", "addressLine": "1 Main St"}})
}

/// Sends `method` with `params` as they are on the wire (the SDK's types are the newer
/// drafts'); the result as JSON, or the error's text.
pub async fn send(session: &Session, method: &str, params: Value) -> Result<Value, String> {
    use rmcp::model::{ClientRequest, CustomRequest};
    let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
    match session.peer().send_request(request).await {
        Ok(result) => Ok(serde_json::to_value(result).expect("JSON")),
        Err(e) => Err(e.to_string()),
    }
}
