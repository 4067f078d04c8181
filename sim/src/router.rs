//! Finding the operation of a request: the method and path against every route's template
//! (an API's prefix, then literal segments and `{placeholders}`); a literal beats a
//! placeholder at the first place two templates differ.

use crate::model::Model;
use percent_encoding::percent_decode_str;
use std::sync::OnceLock;

enum Seg {
    Lit(String),
    Param,
}

struct Entry {
    api: usize,
    route: usize,
    method: String,
    template: String,
    segs: Vec<Seg>,
}

/// The routes of every API, compiled once per process.
pub(crate) struct Router {
    entries: Vec<Entry>,
}

/// A request's operation: its API, the routes sharing the method and path (versions of one
/// route differ in media types) and the path parameters' values.
#[derive(Debug, Clone)]
pub(crate) struct Matched {
    pub api: usize,
    pub routes: Vec<usize>,
    pub params: Vec<String>,
}

/// Why no route was found: the API whose prefix the path has, if any, and whether another
/// method is served on the path.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NotFound {
    pub api: Option<usize>,
    pub other_method: bool,
}

fn segments(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(|s| percent_decode_str(s).decode_utf8_lossy().into_owned())
        .collect()
}

impl Router {
    pub(crate) fn get(model: &Model) -> &'static Router {
        static ROUTER: OnceLock<Router> = OnceLock::new();
        ROUTER.get_or_init(|| Router::new(model))
    }

    fn new(model: &Model) -> Router {
        let mut entries = Vec::new();
        for (api, table) in model.apis.iter().enumerate() {
            for (route, r) in table.routes.iter().enumerate() {
                let template = format!("{}{}", table.api.prefix, r.path);
                let segs = template
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        if s.starts_with('{') && s.ends_with('}') {
                            Seg::Param
                        } else {
                            Seg::Lit(s.to_owned())
                        }
                    })
                    .collect();
                entries.push(Entry {
                    api,
                    route,
                    method: r.method.as_str().to_owned(),
                    template,
                    segs,
                });
            }
        }
        Router { entries }
    }

    pub(crate) fn find(
        &self,
        model: &Model,
        method: &str,
        path: &str,
    ) -> Result<Matched, NotFound> {
        let segs = segments(path);
        let mut best: Option<(Vec<bool>, &Entry)> = None;
        let mut other_method = false;
        for e in self.entries.iter().filter(|e| e.segs.len() == segs.len()) {
            let fits = e.segs.iter().zip(&segs).all(|(t, s)| match t {
                Seg::Lit(l) => l == s,
                Seg::Param => true,
            });
            if !fits {
                continue;
            }
            if e.method != method {
                other_method = true;
                continue;
            }
            let score: Vec<bool> = e.segs.iter().map(|s| matches!(s, Seg::Lit(_))).collect();
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, e));
            }
        }
        let Some((_, e)) = best else {
            let api = model
                .apis
                .iter()
                .position(|t| !t.api.prefix.is_empty() && path.starts_with(&t.api.prefix))
                .or_else(|| model.api("network").map(|(i, _)| i));
            return Err(NotFound { api, other_method });
        };
        let routes = self
            .entries
            .iter()
            .filter(|x| x.api == e.api && x.method == e.method && x.template == e.template)
            .map(|x| x.route)
            .collect();
        let params = e
            .segs
            .iter()
            .zip(segs)
            .filter(|(t, _)| matches!(t, Seg::Param))
            .map(|(_, s)| s)
            .collect();
        Ok(Matched {
            api: e.api,
            routes,
            params,
        })
    }
}
