// The pools' asynchronous mode (EnvPool's send/recv): envs are sent actions in any batches, their
// worlds step on background threads of the stepper's own while the caller goes on, and recv hands
// back the first batch of envs whose worlds have finished. The unit of work is a packing's world,
// stepped whole as in a synchronous step: a world is queued once every env in it has been sent,
// and its envs become ready together. So that recv never waits for envs nobody will send, a batch
// is always whole worlds: every world's size divides the batch size (AsyncPacking), or the batch
// is the whole pool.
//
// An env's results depend only on its own actions and seeds, never on which thread steps it or
// when, so each env's trajectory is the same whatever order envs come back in.
#pragma once

#include "pool/packing.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace joltgym {

// A packing for batches of batch_size envs out of num_envs (0: all), as near `preferred` as that allows:
// worlds of one size that divides both (1 always does), at most preferred's largest world; the
// preferred packing itself when the batch is the whole pool. requested > 0 (robots per world the
// caller asked for) must divide both: std::invalid_argument naming it otherwise.
Packing AsyncPacking(const Packing& preferred, int num_envs, int batch_size, int requested);

class AsyncStepper {
 public:
  // Steps (or resets) every env of `world` on `worker`: a background thread in [0, num_threads),
  // or num_threads for the caller of Recv, which runs queued worlds itself rather than wait idle.
  using Job = void (*)(void* owner, int world, int worker);

  // Starts no thread: they start at the first Send, so a pool never used asynchronously has none.
  AsyncStepper(const Packing& packing, int num_threads, Job job, void* owner);
  ~AsyncStepper();
  AsyncStepper(const AsyncStepper&) = delete;
  AsyncStepper& operator=(const AsyncStepper&) = delete;

  int num_threads() const { return num_threads_; }
  // Envs sent and not yet received: waiting for the rest of their world, stepping, or ready.
  int in_flight() const;
  // Envs whose worlds finished and that Recv has not returned yet.
  int ready() const;
  // Throws std::invalid_argument naming the envs among envs[0, count) that are out of range,
  // repeated, or still in flight; changes nothing then.
  void CheckSendable(const int* envs, int count) const;
  // For a call that reads or writes the envs' state (`call`, e.g. "get_state()"): throws
  // std::invalid_argument naming the envs among envs[0, count) that are out of range, repeated
  // (unless allowed) or in flight.
  void CheckHeld(const int* envs, int count, bool allow_repeats, const std::string& call) const;
  // Marks the envs sent (CheckSendable first) and queues every world whose envs are now all sent.
  // The caller has staged their inputs, which a world's job may read until Recv returns its envs.
  void Send(const int* envs, int count);
  // Waits for `count` envs' worth of finished worlds and writes their ids to envs: the whole pool
  // in env order when count is every env, else whole worlds in the order they finished. Throws
  // std::invalid_argument, at once, when fewer than count envs are stepping or ready (naming the
  // envs that wait for the rest of their world), and rethrows what a job threw.
  void Recv(int count, int* envs);
  // Waits until world g's job is neither queued nor running.
  void WaitForWorld(int g);
  // Waits until no job is queued or running; results not yet received stay ready.
  void WaitIdle();
  // WaitIdle, then forgets every env in flight: the results not received and the sends of worlds
  // that never started are dropped, and every env may be sent again.
  void Drain();

 private:
  enum class State : std::uint8_t { kHeld, kSent, kQueued, kReady };

  void Start();  // the worker threads, at the first Send
  void WorkerLoop(int worker);
  // Runs world w's job on `worker` with the mutex released, then marks its envs ready.
  void RunWorld(std::unique_lock<std::mutex>& lock, int w, int worker);
  void CheckThreads() const;
  void CheckSendableLocked(const int* envs, int count) const;  // CheckSendable with the mutex held
  // Throws naming the envs out of range, repeated (unless allowed: "<ids> " + repeated_why) or in
  // flight (busy_advice says what to do); the mutex held.
  void CheckIdsLocked(const int* envs, int count, bool allow_repeats, const std::string& repeated_why,
                      const std::string& busy_advice) const;

  Packing packing_;
  int num_threads_;
  Job job_;
  void* owner_;
  std::vector<State> env_state_;
  std::vector<int> sent_in_world_;  // envs of each world sent so far
  std::vector<bool> world_busy_;    // queued or running
  std::deque<int> queue_;           // worlds to run, in the order they were completed by sends
  std::deque<int> finished_;        // worlds ready to be received, in the order they finished
  int busy_ = 0;                    // worlds queued or running
  int in_flight_ = 0;               // envs not held
  int ready_envs_ = 0;
  std::exception_ptr failure_;
  bool stopping_ = false;
  unsigned forks_at_start_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable work_;   // workers: a world was queued
  std::condition_variable done_;   // callers: a world finished
  std::vector<std::thread> threads_;
};

}  // namespace joltgym
