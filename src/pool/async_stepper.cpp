#include "pool/async_stepper.h"

#include "pool/env_list.h"
#include "pool/thread_pool.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace joltgym {
Packing AsyncPacking(const Packing& preferred, int num_envs, int batch_size, int requested) {
  if (batch_size == 0) batch_size = num_envs;
  if (batch_size < 1 || batch_size > num_envs)
    throw std::invalid_argument("batch_size must be in [1, num_envs=" + std::to_string(num_envs) + "], got " +
                                std::to_string(batch_size));
  if (batch_size == num_envs) return preferred;
  const int common = std::gcd(num_envs, batch_size);
  if (requested > 0) {
    if (common % requested != 0)
      throw std::invalid_argument(
          "robots_per_world=" + std::to_string(requested) + " with batch_size=" + std::to_string(batch_size) +
          " and num_envs=" + std::to_string(num_envs) +
          ": an asynchronous batch is made of whole worlds, so the robots per world must divide both");
    return Packing(num_envs, num_envs / requested);
  }
  int size = std::min(common, preferred.largest());
  while (common % size != 0) --size;
  return Packing(num_envs, num_envs / size);
}

AsyncStepper::AsyncStepper(const Packing& packing, int num_threads, Job job, void* owner)
    : packing_(packing),
      num_threads_(std::max(1, num_threads)),
      job_(job),
      owner_(owner),
      env_state_(size_t(packing.FirstOf(packing.worlds() - 1) + packing.SizeOf(packing.worlds() - 1)), State::kHeld),
      sent_in_world_(size_t(packing.worlds()), 0),
      world_busy_(size_t(packing.worlds()), false) {}

AsyncStepper::~AsyncStepper() {
  if (threads_.empty()) return;
  if (ForksSoFar() != forks_at_start_) {
    // The threads and their waits belong to the process this one was forked from: never join them.
    new std::vector<std::thread>(std::move(threads_));
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void AsyncStepper::Start() {
  forks_at_start_ = ForksSoFar();
  threads_.reserve(size_t(num_threads_));
  for (int w = 0; w < num_threads_; ++w) threads_.emplace_back(&AsyncStepper::WorkerLoop, this, w);
}

void AsyncStepper::CheckThreads() const {
  if (!threads_.empty() && ForksSoFar() != forks_at_start_)
    throw std::runtime_error(
        "this env's asynchronous worker threads belong to the process it was created in, and this process was "
        "forked from that one after they started; create the env in this process (or pickle it: pickling "
        "rebuilds it)");
}

int AsyncStepper::in_flight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_flight_;
}

int AsyncStepper::ready() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ready_envs_;
}

void AsyncStepper::CheckSendable(const int* envs, int count) const {
  std::lock_guard<std::mutex> lock(mutex_);
  CheckSendableLocked(envs, count);
}

void AsyncStepper::CheckSendableLocked(const int* envs, int count) const {
  CheckIdsLocked(envs, count, false, "sent twice in one call", "send an env again only after recv() returned it");
}

void AsyncStepper::CheckHeld(const int* envs, int count, bool allow_repeats, const std::string& call) const {
  std::lock_guard<std::mutex> lock(mutex_);
  CheckIdsLocked(envs, count, allow_repeats, "given twice to " + call, call + " only after recv() returned them");
}

void AsyncStepper::CheckIdsLocked(const int* envs, int count, bool allow_repeats, const std::string& repeated_why,
                                  const std::string& busy_advice) const {
  const int n = int(env_state_.size());
  std::vector<int> out_of_range, repeated, busy;
  std::vector<bool> seen(size_t(n), false);
  for (int k = 0; k < count; ++k) {
    const int i = envs[k];
    if (i < 0 || i >= n) {
      out_of_range.push_back(i);
    } else if (seen[size_t(i)] && !allow_repeats) {
      repeated.push_back(i);
    } else {
      seen[size_t(i)] = true;
      if (env_state_[size_t(i)] != State::kHeld) busy.push_back(i);
    }
  }
  if (!out_of_range.empty())
    throw std::invalid_argument("env id(s) " + EnvList(out_of_range) + " out of range [0, " + std::to_string(n) + ")");
  if (!repeated.empty()) throw std::invalid_argument("env id(s) " + EnvList(repeated) + " " + repeated_why);
  if (!busy.empty())
    throw std::invalid_argument("env(s) " + EnvList(busy) + " were sent actions that recv() has not returned yet: " +
                                busy_advice);
}

void AsyncStepper::Send(const int* envs, int count) {
  std::unique_lock<std::mutex> lock(mutex_);
  CheckThreads();
  CheckSendableLocked(envs, count);
  if (threads_.empty()) Start();
  in_flight_ += count;
  int queued = 0;
  for (int k = 0; k < count; ++k) {
    const int i = envs[k];
    env_state_[size_t(i)] = State::kSent;
    const int w = packing_.WorldOf(i);
    if (++sent_in_world_[size_t(w)] < packing_.SizeOf(w)) continue;
    sent_in_world_[size_t(w)] = 0;
    const int first = packing_.FirstOf(w);
    std::fill(env_state_.begin() + first, env_state_.begin() + first + packing_.SizeOf(w), State::kQueued);
    world_busy_[size_t(w)] = true;
    ++busy_;
    queue_.push_back(w);
    ++queued;
  }
  lock.unlock();
  if (queued == 1) work_.notify_one();
  if (queued > 1) work_.notify_all();
}

void AsyncStepper::Recv(int count, int* envs) {
  std::unique_lock<std::mutex> lock(mutex_);
  CheckThreads();
  int coming = ready_envs_;
  for (int w = 0; w < packing_.worlds(); ++w)
    if (world_busy_[size_t(w)]) coming += packing_.SizeOf(w);
  if (coming < count) {
    std::vector<int> waiting;
    for (int i = 0; i < int(env_state_.size()); ++i)
      if (env_state_[size_t(i)] == State::kSent) waiting.push_back(i);
    std::string why = "recv() waits for " + std::to_string(count) + " envs, but only " + std::to_string(coming) +
                      " are stepping or ready: send() actions for the envs recv() returned";
    if (!waiting.empty())
      why += "; env(s) " + EnvList(waiting) +
             " were sent but wait for the other envs of their Jolt world (each world steps whole)";
    throw std::invalid_argument(why);
  }
  while (ready_envs_ < count && !failure_) {
    if (queue_.empty()) {
      done_.wait(lock);
      continue;
    }
    const int w = queue_.front();
    queue_.pop_front();
    RunWorld(lock, w, num_threads_);
  }
  if (failure_) {
    std::exception_ptr failure = failure_;
    failure_ = nullptr;
    std::rethrow_exception(failure);
  }
  int taken = 0;
  if (count == int(env_state_.size())) {
    std::iota(envs, envs + count, 0);
    finished_.clear();
    taken = count;
  } else {
    while (taken < count) {
      const int w = finished_.front();
      finished_.pop_front();
      for (int k = 0; k < packing_.SizeOf(w); ++k) envs[taken++] = packing_.FirstOf(w) + k;
    }
  }
  for (int k = 0; k < taken; ++k) env_state_[size_t(envs[k])] = State::kHeld;
  ready_envs_ -= taken;
  in_flight_ -= taken;
}

void AsyncStepper::WaitForWorld(int g) {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return !world_busy_[size_t(g)]; });
}

void AsyncStepper::WaitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
}

void AsyncStepper::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  std::fill(env_state_.begin(), env_state_.end(), State::kHeld);
  std::fill(sent_in_world_.begin(), sent_in_world_.end(), 0);
  finished_.clear();
  ready_envs_ = 0;
  in_flight_ = 0;
  failure_ = nullptr;
}

void AsyncStepper::RunWorld(std::unique_lock<std::mutex>& lock, int w, int worker) {
  lock.unlock();
  std::exception_ptr failure;
  try {
    job_(owner_, w, worker);
  } catch (...) {
    failure = std::current_exception();
  }
  lock.lock();
  if (failure && !failure_) failure_ = failure;
  const int first = packing_.FirstOf(w), size = packing_.SizeOf(w);
  std::fill(env_state_.begin() + first, env_state_.begin() + first + size, State::kReady);
  world_busy_[size_t(w)] = false;
  --busy_;
  ready_envs_ += size;
  finished_.push_back(w);
  done_.notify_all();
}

void AsyncStepper::WorkerLoop(int worker) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    const int w = queue_.front();
    queue_.pop_front();
    RunWorld(lock, w, worker);
  }
}

}  // namespace joltgym
