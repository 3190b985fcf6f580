// Persistent worker threads for stepping many worlds: created once, joined at
// destruction, woken per batch. The calling thread takes part as worker 0, so a
// pool of one thread runs everything inline.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace joltgym {

class ThreadPool {
 public:
  // A batch job: called once per worker with its index in [0, num_threads).
  using Job = void (*)(void* context, int worker);

  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return num_threads_; }
  // Runs job(context, w) for every worker w and returns when all are done.
  void Run(Job job, void* context);

 private:
  void WorkerLoop(int worker);

  int num_threads_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  Job job_ = nullptr;
  void* context_ = nullptr;
  std::uint64_t generation_ = 0;
  int pending_ = 0;
  bool stopping_ = false;
};

}  // namespace joltgym
