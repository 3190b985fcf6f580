// Persistent worker threads for stepping many worlds: created once, joined at
// destruction, woken per batch. The calling thread takes part as worker 0, so a
// pool of one thread runs everything inline.
//
// Fork-safe: a process forked from the one that made the pool (multiprocessing's and
// Gymnasium's AsyncVectorEnv's default on Linux) inherits the pool's memory but not its
// worker threads. There Run throws, and destruction leaks the threads' handles and the
// mutex and condition variables they were waiting on, which could not be destroyed or
// joined (a condition variable with waiters at the fork blocks its destruction forever).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace joltgym {

// How many times this process and its ancestors forked since the module loaded: threads started
// at a lower count belong to another process.
unsigned ForksSoFar();

class ThreadPool {
 public:
  // A batch job: called once per worker with its index in [0, num_threads).
  using Job = void (*)(void* context, int worker);

  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // One item of a batch: called with the item's index and the worker that runs it.
  using Item = void (*)(void* context, int index, int worker);

  int num_threads() const { return num_threads_; }
  // Runs job(context, w) for every worker w and returns when all are done. Throws
  // std::runtime_error in a process forked after the pool's worker threads started.
  void Run(Job job, void* context);
  // Runs item(context, i, w) once for every i in [0, count), each by the worker w that takes it:
  // workers take the next index from a shared counter as they come free, so one woken late or
  // slowed by another process on its core leaves its share to the others, where a fixed split
  // would hold the batch until its half was done. Items must not depend on which worker runs them.
  void ForEach(int count, Item item, void* context);
  // Runs item(context, i, w) once for every i in [0, count), as ForEach, except that worker w
  // first runs its own share, [count * w / T, count * (w + 1) / T) from the front, and only then
  // takes what is left of the others' shares, from their backs. Called step after step, each
  // item stays with one worker, its memory in that core's caches, and one that finishes early
  // still helps: the pool then steps at the rate of the bare loop's fixed halves, where ForEach's
  // shared counter, its items wandering between cores, falls behind.
  void ForEachHomed(int count, Item item, void* context);
  // Worker w's share of ForEachHomed's count items: [first, last).
  std::pair<int, int> ShareOf(int count, int worker) const {
    return {int(std::int64_t(count) * worker / num_threads_), int(std::int64_t(count) * (worker + 1) / num_threads_)};
  }
  // Whether this process was forked after the pool started its worker threads.
  bool LostWorkers() const;

 private:
  struct Sync {
    std::mutex mutex;
    std::condition_variable start;
    std::condition_variable done;
    Job job = nullptr;
    void* context = nullptr;
    // Written under the mutex; atomic so that a spinning thread may read them without it.
    std::atomic<std::uint64_t> generation{0};
    std::atomic<int> pending{0};
    bool stopping = false;
  };

  void WorkerLoop(int worker);

  int num_threads_;
  // ForEachHomed's shares, one per worker: the next item from the front in the high 32 bits, the
  // end from the back in the low ones, taken by compare-and-swap from either end.
  std::unique_ptr<std::atomic<std::uint64_t>[]> shares_;
  unsigned forks_at_start_;  // the process's fork count when the workers started
  std::vector<std::thread> threads_;
  std::unique_ptr<Sync> sync_;
};

}  // namespace joltgym
