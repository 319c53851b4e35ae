//! A small load generator for `query serve`, on loopback only: N requests
//! to `/api/solve` for 3x3 positions over C keep-alive connections, then
//! throughput, latency percentiles and the count of errors.
//!
//! `cargo run --release --example load -- http://127.0.0.1:PORT/ [N] [C]`
//! (`scripts/load.sh` starts the server and runs this).

use npuzzle::{Board, Move, Shape};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args
        .get(1)
        .expect("usage: load URL [REQUESTS] [CONNECTIONS]");
    let host = url
        .strip_prefix("http://")
        .expect("an http:// URL")
        .trim_end_matches('/')
        .to_string();
    let ip = host.rsplit_once(':').expect("host:port").0;
    assert!(
        ip == "127.0.0.1" || ip == "localhost" || ip == "[::1]",
        "loopback only: {host}"
    );
    let requests: usize = args.get(2).map_or(50_000, |n| n.parse().unwrap());
    let connections: usize = args.get(3).map_or(64, |n| n.parse().unwrap());

    // Positions by random walks from the goal: all solvable, of every difficulty.
    let mut rng = StdRng::seed_from_u64(1);
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let lines: Arc<Vec<Vec<u8>>> = Arc::new(
        (0..1024)
            .map(|_| {
                let mut b = goal;
                for _ in 0..rng.gen_range(0..200) {
                    b = b.apply(Move::ALL[rng.gen_range(0..4)]).unwrap_or(b);
                }
                format!("GET /api/solve?start={b} HTTP/1.1\r\nHost: {host}\r\n\r\n").into_bytes()
            })
            .collect(),
    );

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let next = Arc::new(AtomicUsize::new(0));
    let began = Instant::now();
    let results = runtime.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..connections {
            let (host, lines, next) = (host.clone(), lines.clone(), next.clone());
            tasks.push(tokio::spawn(async move {
                connection(&host, &lines, &next, requests).await
            }));
        }
        let mut all = (Vec::new(), 0usize);
        for t in tasks {
            let (latencies, errors) = t.await.unwrap();
            all.0.extend(latencies);
            all.1 += errors;
        }
        all
    });
    let elapsed = began.elapsed();
    let (mut latencies, errors) = results;
    latencies.sort_unstable();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "{} requests over {connections} connections in {:.2} s: {:.0} requests/s; \
         latency p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; {errors} errors",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
    if errors > 0 || latencies.len() != requests {
        std::process::exit(1);
    }
}

/// One keep-alive connection taking requests until all are sent: each
/// request's latency, and the count of non-200 answers or broken ones.
async fn connection(
    host: &str,
    lines: &[Vec<u8>],
    next: &AtomicUsize,
    total: usize,
) -> (Vec<Duration>, usize) {
    let mut stream = TcpStream::connect(host).await.expect("connect");
    stream.set_nodelay(true).unwrap();
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut buf = vec![0u8; 8192];
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= total {
            break;
        }
        let sent = Instant::now();
        if stream.write_all(&lines[i % lines.len()]).await.is_err() {
            errors += 1;
            break;
        }
        match read_answer(&mut stream, &mut buf).await {
            Some(200) => latencies.push(sent.elapsed()),
            _ => errors += 1,
        }
    }
    (latencies, errors)
}

/// Reads one answer (head, then `content-length` bytes); its status.
async fn read_answer(stream: &mut TcpStream, buf: &mut [u8]) -> Option<u16> {
    let mut filled = 0;
    loop {
        let n = stream.read(&mut buf[filled..]).await.ok()?;
        if n == 0 {
            return None;
        }
        filled += n;
        let text = &buf[..filled];
        if let Some(end) = text.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = std::str::from_utf8(&text[..end]).ok()?;
            let status: u16 = head.split(' ').nth(1)?.parse().ok()?;
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().ok())?
                })
                .unwrap_or(0);
            let mut have = filled - (end + 4);
            while have < length {
                let n = stream.read(&mut buf[..]).await.ok()?;
                if n == 0 {
                    return None;
                }
                have += n;
            }
            return Some(status);
        }
        if filled == buf.len() {
            return None;
        }
    }
}
