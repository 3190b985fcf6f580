#include "pool/thread_pool.h"

#include <stdexcept>

namespace joltgym {

ThreadPool::ThreadPool(int num_threads) : num_threads_(num_threads) {
  if (num_threads < 1) throw std::invalid_argument("num_threads must be >= 1");
  threads_.reserve(size_t(num_threads - 1));
  for (int w = 1; w < num_threads; ++w) threads_.emplace_back(&ThreadPool::WorkerLoop, this, w);
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::Run(Job job, void* context) {
  if (threads_.empty()) {
    job(context, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = job;
    context_ = context;
    pending_ = int(threads_.size());
    ++generation_;
  }
  start_.notify_all();
  job(context, 0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
}

void ThreadPool::WorkerLoop(int worker) {
  std::uint64_t seen = 0;
  for (;;) {
    Job job;
    void* context;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
      context = context_;
    }
    job(context, worker);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace joltgym
