use super::crash_evidence::{in_call, CrashLabel};
use super::engine_stall::Stopwatch;
use super::{thread_cpu_time, Call, CallResult, Deadline, HostKind, SeatHost};
use abi_stable::std_types::RResult;
use agon_abi::BotBox;
use std::mem::ManuallyDrop;

/// Calls the bot on the match thread. It cannot interrupt a call: the runner judges the budget
/// once the call returns, and a call that never returns hangs the match (trusted code only).
pub struct InlineHost {
    /// Dropped by hand, in [`Drop`], so that its clean-up runs watched for crashes.
    bot: ManuallyDrop<BotBox>,
    label: Option<CrashLabel>,
}

impl InlineHost {
    pub fn new(bot: BotBox) -> InlineHost {
        InlineHost {
            bot: ManuallyDrop::new(bot),
            label: None,
        }
    }
}

/// Times one call: the CPU clock outermost, the monotonic clock inside it, so that the wall
/// time excludes the CPU clock's system calls (see `cpu_clock.rs` for why both are read).
fn timed<T>(f: impl FnOnce() -> RResult<T, agon_abi::BotFailure>) -> Call<T> {
    let cpu0 = thread_cpu_time();
    let watch = Stopwatch::start();
    let answer = f();
    let wall = watch.elapsed();
    let cpu = thread_cpu_time().saturating_sub(cpu0);
    let result = match answer {
        RResult::ROk(value) => CallResult::Answer(value),
        RResult::RErr(failure) => CallResult::Failed(failure),
    };
    Call {
        result,
        wall,
        cpu: Some(cpu),
    }
}

impl SeatHost for InlineHost {
    fn kind(&self) -> HostKind {
        HostKind::Inline
    }

    fn label_calls(&mut self, label: CrashLabel) {
        self.label = Some(label);
    }

    fn start(&mut self, message: Vec<u8>, _: Deadline) -> Call<()> {
        let bot = &mut self.bot;
        in_call(self.label.as_ref(), || {
            timed(|| bot.start(message.as_slice().into()))
        })
    }

    fn act(&mut self, message: Vec<u8>, _: Deadline) -> Call<Vec<u8>> {
        let bot = &mut self.bot;
        let call = in_call(self.label.as_ref(), || {
            timed(|| bot.act(message.as_slice().into()))
        });
        Call {
            result: call.result.map(|bytes| bytes.into_vec()),
            wall: call.wall,
            cpu: call.cpu,
        }
    }
}

impl Drop for InlineHost {
    fn drop(&mut self) {
        // The bot's clean-up runs on this thread: a crash in it is this seat's.
        // SAFETY: the bot is taken once, here, and never used again.
        let bot = unsafe { ManuallyDrop::take(&mut self.bot) };
        in_call(self.label.as_ref(), move || drop(bot));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::test_bots::burner;
    use std::time::Duration;

    fn cpu_budget(ms: u64) -> Deadline {
        Deadline::cpu(Some(Duration::from_millis(ms)))
    }

    /// A move is charged, recorded and judged by the CPU time its bot spent on the match
    /// thread: a bot over its CPU budget overruns it, one under it does not.
    #[test]
    fn a_move_is_charged_the_cpu_time_its_bot_spent() {
        let mut host = InlineHost::new(burner(Duration::from_millis(40)));
        let call = host.act(b"move".to_vec(), cpu_budget(30));
        assert!(
            matches!(&call.result, CallResult::Answer(bytes) if bytes == b"move"),
            "{:?}",
            call.result
        );
        let cpu = call.cpu.expect("the inline host measures CPU time");
        assert!((40..45).contains(&cpu.as_millis()), "{cpu:?}");
        assert!(cpu_budget(30).overrun(call.wall, call.cpu));
        assert!(!cpu_budget(50).overrun(call.wall, call.cpu));
    }
}
