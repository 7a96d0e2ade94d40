//! One measured figure of `agon bench` and how samples become one: every suite reports
//! [`Figure`]s; nothing here knows a suite.

use serde::Serialize;
use std::borrow::Cow;
use std::time::{Duration, Instant};

#[derive(Serialize)]
pub struct Figure {
    pub name: Cow<'static, str>,
    /// Median over the samples.
    pub median: f64,
    /// Best sample.
    pub best: f64,
    pub unit: &'static str,
}

pub const SAMPLES: usize = 9;

/// Nanoseconds per call of `f`: SAMPLES samples, each as many calls as fit in `per_sample`.
pub fn per_call(
    name: impl Into<Cow<'static, str>>,
    per_sample: Duration,
    mut f: impl FnMut(),
) -> Figure {
    // Warm up and size the batch so one timing covers many calls.
    let mut batch = 1u64;
    loop {
        let t0 = Instant::now();
        for _ in 0..batch {
            f();
        }
        if t0.elapsed() > Duration::from_millis(20) {
            break;
        }
        batch *= 2;
    }
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t0 = Instant::now();
        let mut calls = 0u64;
        while t0.elapsed() < per_sample {
            for _ in 0..batch {
                f();
            }
            calls += batch;
        }
        samples.push(t0.elapsed().as_nanos() as f64 / calls as f64);
    }
    summarize(name, samples, "ns")
}

/// A figure measured once (a memory reading, a whole run): its median and best are the value.
pub fn single(name: impl Into<Cow<'static, str>>, value: f64, unit: &'static str) -> Figure {
    Figure {
        name: name.into(),
        median: value,
        best: value,
        unit,
    }
}

pub fn summarize(
    name: impl Into<Cow<'static, str>>,
    mut samples: Vec<f64>,
    unit: &'static str,
) -> Figure {
    samples.sort_by(|a, b| a.total_cmp(b));
    // Times: the smallest is best; rates: the largest.
    let best = if unit == "/s" {
        samples[samples.len() - 1]
    } else {
        samples[0]
    };
    Figure {
        name: name.into(),
        median: samples[samples.len() / 2],
        best,
        unit,
    }
}

/// A latency in milliseconds, `WHAT (ms)`: its median (and best) over `samples`, and its worst
/// sample as a figure of its own, `WHAT, worst (ms)`: the worst is what a team waits for on a
/// bad day, which a median hides.
pub fn with_worst_ms(what: &str, samples: Vec<f64>) -> [Figure; 2] {
    let worst = samples.iter().copied().fold(0.0, f64::max);
    [
        summarize(format!("{what} (ms)"), samples, "ms"),
        single(format!("{what}, worst (ms)"), worst, "ms"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_latency_comes_with_its_worst_sample_under_its_own_name() {
        let [typical, worst] = with_worst_ms("swap -> game", vec![30.0, 10.0, 20.0, 90.0, 40.0]);
        assert_eq!(
            (
                typical.name.as_ref(),
                typical.median,
                typical.best,
                typical.unit
            ),
            ("swap -> game (ms)", 30.0, 10.0, "ms")
        );
        assert_eq!(
            (worst.name.as_ref(), worst.median, worst.best, worst.unit),
            ("swap -> game, worst (ms)", 90.0, 90.0, "ms")
        );
    }

    #[test]
    fn a_rate_is_best_at_its_largest_and_a_time_at_its_smallest() {
        assert_eq!(summarize("rate", vec![2.0, 5.0, 3.0], "/s").best, 5.0);
        assert_eq!(summarize("time", vec![2.0, 5.0, 3.0], "ms").best, 2.0);
    }
}
