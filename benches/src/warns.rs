//! A tracing subscriber for the `msp --redis` worker processes: prints every WARN and ERROR event
//! to stderr and counts those that say the Redis pacing store does not answer.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// Fallback WARNs seen in this process.
pub static FALLBACK_WARNS: AtomicUsize = AtomicUsize::new(0);

/// The start of the runtime's fallback WARN.
const FALLBACK: &str = "the Redis pacing store does not answer";

pub struct Warns;

struct Text(String);

impl Visit for Text {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl Subscriber for Warns {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= Level::WARN
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut text = Text(String::new());
        event.record(&mut text);
        if text.0.contains(FALLBACK) {
            FALLBACK_WARNS.fetch_add(1, Ordering::Relaxed);
        }
        eprintln!("{}{}", event.metadata().level(), text.0);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}
