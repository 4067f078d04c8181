//! A small capturing `tracing` subscriber standing in for
//! `tracing-subscriber`: spans with their fields (also those recorded
//! later), events with their fields and parent span. It is installed for the
//! current thread only (tokio's test runtime is current-thread), so parallel
//! tests do not see each other.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

#[derive(Debug, Clone)]
pub struct SpanRec {
    pub name: &'static str,
    pub parent: Option<u64>,
    pub fields: BTreeMap<String, String>,
}

#[derive(Debug, Clone)]
pub struct EventRec {
    pub level: tracing::Level,
    pub target: String,
    pub parent: Option<u64>,
    pub fields: BTreeMap<String, String>,
}

impl EventRec {
    pub fn message(&self) -> &str {
        self.fields.get("message").map_or("", String::as_str)
    }
}

#[derive(Default)]
struct Captured {
    spans: BTreeMap<u64, SpanRec>,
    events: Vec<EventRec>,
    stack: Vec<u64>,
}

#[derive(Clone, Default)]
pub struct Capture {
    captured: Arc<Mutex<Captured>>,
    next: Arc<AtomicU64>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target().starts_with("ruckus_one_runtime")
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut captured = self.captured.lock().unwrap();
        let parent = match attrs.parent() {
            Some(parent) => Some(parent.into_u64()),
            None if attrs.is_contextual() => captured.stack.last().copied(),
            None => None,
        };
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        captured.spans.insert(
            id,
            SpanRec {
                name: attrs.metadata().name(),
                parent,
                fields,
            },
        );
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut captured = self.captured.lock().unwrap();
        if let Some(rec) = captured.spans.get_mut(&span.into_u64()) {
            values.record(&mut Fields(&mut rec.fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut captured = self.captured.lock().unwrap();
        let parent = match event.parent() {
            Some(parent) => Some(parent.into_u64()),
            None if event.is_contextual() => captured.stack.last().copied(),
            None => None,
        };
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        captured.events.push(EventRec {
            level: *event.metadata().level(),
            target: event.metadata().target().to_owned(),
            parent,
            fields,
        });
    }

    fn enter(&self, span: &Id) {
        self.captured.lock().unwrap().stack.push(span.into_u64());
    }

    fn exit(&self, span: &Id) {
        let mut captured = self.captured.lock().unwrap();
        if let Some(at) = captured.stack.iter().rposition(|id| *id == span.into_u64()) {
            captured.stack.remove(at);
        }
    }
}

impl Capture {
    pub fn install() -> (Capture, tracing::subscriber::DefaultGuard) {
        let capture = Capture::default();
        let guard = tracing::subscriber::set_default(capture.clone());
        (capture, guard)
    }

    pub fn spans(&self, name: &str) -> Vec<(u64, SpanRec)> {
        let captured = self.captured.lock().unwrap();
        captured
            .spans
            .iter()
            .filter(|(_, s)| s.name == name)
            .map(|(id, s)| (*id, s.clone()))
            .collect()
    }

    pub fn events(&self) -> Vec<EventRec> {
        self.captured.lock().unwrap().events.clone()
    }

    /// Every captured text: span names and fields, event fields.
    pub fn all_text(&self) -> String {
        self.text_outside("")
    }

    /// [`all_text`](Self::all_text) less the events of `target` (none when it is empty).
    pub fn text_outside(&self, target: &str) -> String {
        let captured = self.captured.lock().unwrap();
        let mut out = String::new();
        for span in captured.spans.values() {
            out.push_str(&format!("{span:?}\n"));
        }
        for event in &captured.events {
            if target.is_empty() || event.target != target {
                out.push_str(&format!("{event:?}\n"));
            }
        }
        out
    }

    /// The events whose message is `message`.
    pub fn events_saying(&self, message: &str) -> Vec<EventRec> {
        self.events()
            .into_iter()
            .filter(|e| e.message() == message)
            .collect()
    }
}
