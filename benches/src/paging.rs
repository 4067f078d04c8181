//! The `paging` part: items per second through `.pages()` and `.items()` against a hand-written
//! page loop, where the time of a page goes, and the cost of a `wait_for_activity` poll.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use ruckus_one::Client;

use crate::clients::{self, Failure, Hand};
use crate::options::Options;
use crate::server::{self, Server};
use crate::stats::{Spread, row};

/// Items per second through `.pages()` and `.items()` over 100 pages against a hand-written page
/// loop, and the cost of a poll of `wait_for_activity` (zero intervals) against a hand-written
/// poll loop.
pub async fn paging_bench(server: &Server, options: &Options) -> Result<(), Failure> {
    let base = server.url();
    let generated = clients::generated(&base);
    let hand = Hand::connect(&base).await?;
    page_rates(&generated, &hand, options).await?;
    decode_breakdown(server, options);
    activity_polls(&generated, &hand, options).await
}

/// Items per second through `.pages()`, `.items()` and a hand-written page loop.
async fn page_rates(generated: &Client, hand: &Hand, options: &Options) -> Result<(), Failure> {
    // Three ways through the same 100 pages, in a rotating order: `.pages()`, `.items()` and a
    // hand-written page loop.
    let mut rates: [Vec<f64>; 3] = Default::default();
    for run in 0..=options.runs {
        eprintln!("paging: run {run} (0 is warm-up)");
        for k in 0..3 {
            let way = (run + k) % 3;
            let started = Instant::now();
            let items = match way {
                0 => generated_pages(generated).await?,
                1 => generated_items(generated).await?,
                _ => hand_pages(hand).await?,
            };
            let rate = items as f64 / started.elapsed().as_secs_f64();
            if items != server::PAGES * server::PAGE_SIZE {
                return Err(format!(
                    "{items} items paged (way {way}), {} expected",
                    server::PAGES * server::PAGE_SIZE
                )
                .into());
            }
            if run > 0 {
                rates[way].push(rate);
            }
        }
    }
    let [pages_rates, items_rates, hand_rates] = &rates;
    let label = format!("{} pages of {} APs", server::PAGES, server::PAGE_SIZE);
    for (what, values) in [
        (".pages() generated", pages_rates),
        (".items() generated", items_rates),
        ("hand-written page loop", hand_rates),
    ] {
        row(
            "paging",
            &format!("{label}: {what}"),
            Spread::of(values),
            "items/s",
            "",
        );
    }
    let ratio = |a: &[f64], b: &[f64]| -> Spread {
        Spread::of(&a.iter().zip(b).map(|(x, y)| x / y).collect::<Vec<_>>())
    };
    row(
        "paging",
        &format!("{label}: .pages() / hand-written"),
        ratio(pages_rates, hand_rates),
        "ratio",
        "",
    );
    row(
        "paging",
        &format!("{label}: .items() / hand-written"),
        ratio(items_rates, hand_rates),
        "ratio",
        "",
    );
    Ok(())
}

/// The cost of a poll of `wait_for_activity` (zero intervals) against a hand-written poll loop.
async fn activity_polls(generated: &Client, hand: &Hand, options: &Options) -> Result<(), Failure> {
    // Activity polling: each activity answers INPROGRESS until its last poll.
    let (activities, polls) = if options.quick { (1, 3) } else { (10, 20) };
    let (mut generated_us, mut hand_us) = (Vec::new(), Vec::new());
    for run in 0..=options.runs {
        for side in if run % 2 == 0 {
            [true, false]
        } else {
            [false, true]
        } {
            let started = Instant::now();
            for i in 0..activities {
                let id = format!("act-{run}-{side}-{i}-{polls}");
                if side {
                    clients::generated_wait(generated, &id).await?;
                } else {
                    hand.wait(&id).await?;
                }
            }
            let per_poll = started.elapsed().as_secs_f64() * 1e6 / (activities * polls) as f64;
            if run > 0 {
                if side {
                    &mut generated_us
                } else {
                    &mut hand_us
                }
                .push(per_poll);
            }
        }
    }
    let label = format!("activity of {polls} polls, zero intervals");
    // What a zero pause between polls costs: tokio rounds timer deadlines up to the next
    // millisecond tick.
    let sleeps = if options.quick { 3 } else { 100 };
    let started = Instant::now();
    for _ in 0..sleeps {
        tokio::time::sleep(Duration::ZERO).await;
    }
    let sleep_us = started.elapsed().as_secs_f64() * 1e6 / sleeps as f64;
    row(
        "paging",
        &format!("{label}: wait_for_activity per poll"),
        Spread::of(&generated_us),
        "µs",
        "",
    );
    row(
        "paging",
        &format!("{label}: hand-written loop per poll"),
        Spread::of(&hand_us),
        "µs",
        "",
    );
    let ratios: Vec<f64> = generated_us
        .iter()
        .zip(&hand_us)
        .map(|(g, h)| g / h)
        .collect();
    row(
        "paging",
        &format!("{label}: generated / hand-written"),
        Spread::of(&ratios),
        "ratio",
        "",
    );
    row(
        "paging",
        "breakdown: one tokio::time::sleep(Duration::ZERO)",
        Spread::single(sleep_us),
        "µs",
        "",
    );
    Ok(())
}

async fn generated_pages(client: &Client) -> Result<usize, Failure> {
    let mut pages = client
        .network()
        .wireless_aps()
        .query_venue_aps(&clients::page_query(1))
        .pages();
    let mut items = 0;
    while let Some(page) = pages.next().await {
        items += page?.data.map_or(0, |d| d.len());
    }
    Ok(items)
}

async fn generated_items(client: &Client) -> Result<usize, Failure> {
    let mut items = client
        .network()
        .wireless_aps()
        .query_venue_aps(&clients::page_query(1))
        .items();
    let mut count = 0;
    while let Some(item) = items.next().await {
        std::hint::black_box(item?);
        count += 1;
    }
    Ok(count)
}

/// What a user writes: pages until the stated total is reached (else a short page), as
/// `.pages()` does.
async fn hand_pages(client: &Hand) -> Result<usize, Failure> {
    let mut items = 0;
    for number in 1.. {
        let page = client.page(&clients::page_query(number)).await?;
        let count = page.data.map_or(0, |d| d.len());
        items += count;
        let done = match page.total_count {
            Some(total) => items as i64 >= total,
            None => count < server::PAGE_SIZE,
        };
        if count == 0 || done {
            break;
        }
    }
    Ok(items)
}

/// Where the time of a page goes: `.pages()` reads the body once for its paging keys (items
/// counted, the rest skipped: about what a pass into `IgnoredAny` costs), hashes the body (the
/// repeated-page check) and decodes it into the page type, as a hand-written loop does. Until
/// this benchmark it built a `serde_json::Value` of the page, hashed its serialization and
/// converted the `Value`: those costs are shown too.
fn decode_breakdown(server: &Server, options: &Options) {
    use ruckus_one::network::common::QueryResult;
    use serde_json::Value;
    use std::hash::{DefaultHasher, Hash, Hasher};
    let bytes = server.state.page(1);
    let rounds = if options.quick { 3 } else { 400 };
    let time = |f: &dyn Fn()| {
        let started = Instant::now();
        for _ in 0..rounds {
            f();
        }
        started.elapsed().as_secs_f64() * 1e6 / rounds as f64
    };
    let direct = time(&|| {
        std::hint::black_box(serde_json::from_slice::<QueryResult>(&bytes).ok());
    });
    let skim = time(&|| {
        std::hint::black_box(serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).ok());
    });
    let hash = time(&|| {
        let mut hasher = DefaultHasher::new();
        bytes.as_ref().hash(&mut hasher);
        std::hint::black_box(hasher.finish());
    });
    let value = serde_json::from_slice::<Value>(&bytes).unwrap_or_default();
    let to_value = time(&|| {
        std::hint::black_box(serde_json::from_slice::<Value>(&bytes).ok());
    });
    let fingerprint = time(&|| {
        std::hint::black_box(ruckus_one::runtime::internal::paging::fingerprint_of(
            &value,
        ));
    });
    let from_value = time(&|| {
        std::hint::black_box(serde_json::from_value::<QueryResult>(value.clone()).ok());
    });
    let clone = time(&|| {
        std::hint::black_box(value.clone());
    });
    let page = "breakdown: one 25-AP page";
    let rows = [
        ("bytes → QueryResult (hand-written and .pages())", direct),
        (
            "one pass skipping everything (≈ the paging-keys pass of .pages())",
            skim,
        ),
        ("hash of the body (.pages() repeated-page check)", hash),
        ("formerly in .pages(): bytes → Value", to_value),
        (
            "formerly in .pages(): fingerprint of the Value",
            fingerprint,
        ),
        (
            "formerly in .pages(): Value → QueryResult",
            (from_value - clone).max(0.0),
        ),
    ];
    for (what, us) in rows {
        row(
            "paging",
            &format!("{page}, {what}"),
            Spread::single(us),
            "µs",
            "",
        );
    }
}
