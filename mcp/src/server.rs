//! The MCP server: its tools, resources and tasks over the index and the runtime client.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::watch;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, GetTaskParams,
    GetTaskResult, Implementation, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::TaskManager;
use rmcp::{ErrorData as McpError, ServerHandler};
use ruckus_one_runtime::{Client, WaitOptions};
use serde_json::{Map, Value};

use crate::confirm::Pending;
use crate::connect::Connection;
use crate::index::{Effect, Index};
use crate::policy::Policy;
use crate::poller::Poller;
use crate::search::{Filter, Searcher};
use crate::tasks::Writer;
use crate::{call, index, output, present, toolargs, tools};

/// How the server describes itself to the model.
const INSTRUCTIONS: &str = "RUCKUS One (Wi-Fi, switches, venues) through its API: \
search_operations to find an operation, describe_operation for its parameters, then the \
invoke tool it names. Read-only unless the operator turned writes on.";

/// The server; cheap to clone (the clones share everything). The tables, the index and the
/// connection (with `--local`, the simulator) are made ready in the background, so the
/// handshake does not wait for them; a tool call waits until they are.
#[derive(Clone)]
pub struct Server {
    policy: Arc<Policy>,
    /// The MCP 2025-11-25 tasks (served by the stdio adapter).
    spec_tasks: Arc<crate::spec_tasks::Store>,
    ready: watch::Receiver<Option<Result<Arc<Inner>, String>>>,
}

pub(crate) struct Inner {
    pub index: Arc<Index>,
    pub searcher: Searcher,
    pub policy: Policy,
    pub connection: Connection,
    pub tasks: TaskManager,
    pub pending: Pending,
    pub writer: Arc<Writer>,
    pub spec_tasks: Arc<crate::spec_tasks::Store>,
    /// The tenant of the credential, when known (shown in confirmations).
    pub own_tenant: Option<String>,
}

impl Server {
    /// A server whose state `connect` makes (the connection and the tenant it acts as), started
    /// at once on the current tokio runtime.
    pub fn start<F>(policy: Policy, connect: F) -> Server
    where
        F: Future<Output = Result<(Connection, Option<String>), String>> + Send + 'static,
    {
        let (send, ready) = watch::channel(None);
        let for_state = policy.clone();
        let spec_tasks = Arc::new(crate::spec_tasks::Store::default());
        let for_inner = spec_tasks.clone();
        tokio::spawn(async move {
            let state = async {
                let (connection, own_tenant) = connect.await?;
                Inner::new(connection, for_state, own_tenant, for_inner).map(Arc::new)
            };
            let _ = send.send(Some(state.await));
        });
        Server {
            policy: Arc::new(policy),
            spec_tasks,
            ready,
        }
    }

    /// The MCP 2025-11-25 tasks of this server.
    pub(crate) fn spec_tasks(&self) -> Arc<crate::spec_tasks::Store> {
        self.spec_tasks.clone()
    }

    /// Runs the tool `request` names, its arguments checked.
    async fn dispatch(
        &self,
        inner: &Inner,
        request: CallToolRequestParams,
        args: &Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let effect = match request.name.as_ref() {
            tools::SEARCH => return Ok(inner.search(args).into()),
            tools::DESCRIBE => return Ok(inner.describe(args).into()),
            tools::PLAN => return Ok(crate::plan::run(inner, args).await.into()),
            index::INVOKE_READ => Effect::Read,
            index::INVOKE_WRITE => Effect::Write,
            index::INVOKE_DELETE => Effect::Delete,
            other => {
                return Err(McpError::invalid_params(
                    format!("no tool named `{other}`"),
                    None,
                ));
            }
        };
        Ok(call::invoke(inner, effect, &request, args, context).await)
    }

    /// The state, once ready (or why it could not be made).
    async fn inner(&self) -> Result<Arc<Inner>, McpError> {
        let mut ready = self.ready.clone();
        let state = ready
            .wait_for(Option::is_some)
            .await
            .map_err(|_| McpError::internal_error("the server stopped starting", None))?;
        match state.as_ref() {
            Some(Ok(inner)) => Ok(inner.clone()),
            Some(Err(e)) => Err(McpError::internal_error(
                format!("start-up failed: {e}"),
                None,
            )),
            None => Err(McpError::internal_error("the server is not ready", None)),
        }
    }
}

impl Inner {
    fn new(
        connection: Connection,
        policy: Policy,
        own_tenant: Option<String>,
        spec_tasks: Arc<crate::spec_tasks::Store>,
    ) -> Result<Inner, String> {
        crate::logs::redact_with(&connection.client);
        let catalog = ruckus_one_catalog::Catalog::get().map_err(|e| e.to_string())?;
        let index = Arc::new(Index::new(catalog));
        let searcher = Searcher::new(&index);
        let query = crate::invoke::activity_op(&index, "query_activities")?;
        let poller = Poller::new(connection.client.clone(), query, WaitOptions::default());
        let writer = Arc::new(Writer {
            client: connection.client.clone(),
            index: index.clone(),
            poller,
        });
        Ok(Inner {
            index,
            searcher,
            policy,
            connection,
            tasks: TaskManager::new(),
            pending: Pending::default(),
            writer,
            spec_tasks,
            own_tenant,
        })
    }

    pub(crate) fn client(&self) -> &Client {
        &self.connection.client
    }

    fn search(&self, args: &Map<String, Value>) -> CallToolResult {
        let query = args
            .get("query")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let effect = match args.get("effect").and_then(Value::as_str) {
            Some("read") => Some(Effect::Read),
            Some("write") => Some(Effect::Write),
            Some("delete") => Some(Effect::Delete),
            _ => None,
        };
        let filter = Filter {
            area: args.get("area").and_then(Value::as_str).map(str::to_owned),
            effect,
        };
        let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(10) as usize;
        let found = self.searcher.search(query, &filter, limit);
        present::search_result(&found)
    }

    fn describe(&self, args: &Map<String, Value>) -> CallToolResult {
        let id = args.get("operation").and_then(Value::as_str).unwrap_or("");
        match self.index.get(id) {
            Some(op) => output::data(self.client(), &present::describe(&op), Vec::new()),
            None => output::error(self.client(), &call::unknown(id)),
        }
    }

    /// Why `args` do not fit the input schema of the tool `name`, if they do not.
    fn refusal(&self, name: &str, args: &Map<String, Value>) -> Option<String> {
        let tool = tools::find(name)?;
        let table = self.index.ops.first()?.table;
        toolargs::check(&tool, args, table).err()
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_tasks()
            .build();
        let mut info = ServerConfig::new(capabilities);
        info.server_info = Implementation::new("ruckus-mcp", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(INSTRUCTIONS.to_owned());
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools::list(&self.policy)))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let inner = self.inner().await?;
        let started = std::time::Instant::now();
        tracing::info!(tool = %request.name, arguments = %crate::logs::names(&args), "tool call");
        if let Some(refusal) = inner.refusal(&request.name, &args) {
            tracing::info!(tool = %request.name, "tool call refused: arguments do not fit");
            return Ok(output::error(inner.client(), &refusal).into());
        }
        let response = self.dispatch(&inner, request, &args, &context).await;
        tracing::info!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            outcome = crate::logs::outcome(&response),
            "tool call done"
        );
        response
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let mut resources = vec![
            Resource::new("ruckus://areas", "areas")
                .with_description("The API areas and how many operations each has")
                .with_mime_type("text/plain"),
        ];
        for (api, area, count) in self.inner().await?.index.areas() {
            resources.push(
                Resource::new(
                    format!("ruckus://operations/{area}"),
                    format!("{api}/{area}"),
                )
                .with_description(format!("The {count} operations of {api}/{area}"))
                .with_mime_type("text/plain"),
            );
        }
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri.as_str();
        let index = &self.inner().await?.index;
        let text = if uri == "ruckus://areas" {
            Some(present::areas(index))
        } else if uri == "ruckus://operations" {
            present::area_index(index, None)
        } else {
            uri.strip_prefix("ruckus://operations/")
                .and_then(|area| present::area_index(index, Some(area)))
        };
        match text {
            Some(text) => {
                Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri)]).into())
            }
            None => Err(McpError::resource_not_found(
                format!("no resource {uri}"),
                None,
            )),
        }
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        let tasks = &self.inner().await?.tasks;
        Ok(GetTaskResult::new(tasks.get_task(&request.task_id)?))
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.inner().await?.tasks.cancel_task(&request.task_id)
    }
}
