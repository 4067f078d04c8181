//! What the server and the handler share: the simulator's state and settings, and the mark of
//! an answer whose connection is dropped.

use crate::config::SimConfig;
use crate::model::Model;
use crate::router::Router;
use crate::state::State;
use std::sync::Mutex;

/// Shared by every connection of one simulator.
pub(crate) struct Inner {
    pub config: SimConfig,
    pub model: &'static Model,
    pub router: &'static Router,
    pub state: Mutex<State>,
}

/// Marks an answer whose connection is to be dropped (an injected fault).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dropped;
