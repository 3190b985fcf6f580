#include "pool/thread_pool.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>

namespace joltgym {
namespace {

// How many times this process's ancestry forked since the module loaded: a forked child
// sees a higher count than the pools it inherited recorded.
std::atomic<unsigned> g_forks{0};

void CountFork() { g_forks.fetch_add(1, std::memory_order_relaxed); }

// A thread about to wait for the other side of a batch first watches for it this long, since a
// step loop hands the next batch over within microseconds and a wake through a condition
// variable is slow on a VM: spinning first steps more envs per second than sleeping at once,
// light tasks and heavy alike, for little more CPU time per env step. Between batches further
// apart than this, a worker sleeps.
constexpr std::chrono::microseconds kSpin{100};

// Whether ready() became true within kSpin.
template <typename Ready>
bool SpinUntil(Ready&& ready) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i)
      if (ready()) return true;
    if (std::chrono::steady_clock::now() >= until) return ready();
  }
}

unsigned WatchForks() {
  static const bool registered = pthread_atfork(nullptr, nullptr, CountFork) == 0;
  (void)registered;
  return g_forks.load(std::memory_order_relaxed);
}

}  // namespace

unsigned ForksSoFar() { return WatchForks(); }

ThreadPool::ThreadPool(int num_threads)
    : num_threads_(num_threads),
      shares_(std::make_unique<std::atomic<std::uint64_t>[]>(size_t(std::max(1, num_threads)))),
      forks_at_start_(WatchForks()),
      sync_(std::make_unique<Sync>()) {
  if (num_threads < 1) throw std::invalid_argument("num_threads must be >= 1");
  threads_.reserve(size_t(num_threads - 1));
  for (int w = 1; w < num_threads; ++w) threads_.emplace_back(&ThreadPool::WorkerLoop, this, w);
}

bool ThreadPool::LostWorkers() const {
  return !threads_.empty() && g_forks.load(std::memory_order_relaxed) != forks_at_start_;
}

ThreadPool::~ThreadPool() {
  if (LostWorkers()) {
    // Neither the threads nor their waits exist in this process: never join or destroy them.
    new std::vector<std::thread>(std::move(threads_));
    sync_.release();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(sync_->mutex);
    sync_->stopping = true;
  }
  sync_->start.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::Run(Job job, void* context) {
  if (threads_.empty()) {
    job(context, 0);
    return;
  }
  if (LostWorkers())
    throw std::runtime_error(
        "this env's worker threads belong to the process it was created in, and this process was forked from "
        "that one after they started; create the env in this process (or pickle it: pickling rebuilds it)");
  Sync& s = *sync_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.job = job;
    s.context = context;
    s.pending = int(threads_.size());
    ++s.generation;
  }
  s.start.notify_all();
  job(context, 0);
  if (SpinUntil([&s] { return s.pending.load(std::memory_order_acquire) == 0; })) return;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.done.wait(lock, [&s] { return s.pending == 0; });
}

void ThreadPool::ForEach(int count, Item item, void* context) {
  struct Items {
    Item item;
    void* context;
    int count;
    std::atomic<int> next{0};
  } items{item, context, count};
  Run(
      [](void* data, int worker) {
        Items& it = *static_cast<Items*>(data);
        for (int i = it.next.fetch_add(1, std::memory_order_relaxed); i < it.count;
             i = it.next.fetch_add(1, std::memory_order_relaxed))
          it.item(it.context, i, worker);
      },
      &items);
}

namespace {

// One end of a ForEachHomed share: the item taken, or -1 once the share is empty.
int TakeFront(std::atomic<std::uint64_t>& share) {
  std::uint64_t v = share.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint32_t front = std::uint32_t(v >> 32), back = std::uint32_t(v);
    if (front >= back) return -1;
    if (share.compare_exchange_weak(v, (std::uint64_t(front + 1) << 32) | back, std::memory_order_relaxed))
      return int(front);
  }
}

int TakeBack(std::atomic<std::uint64_t>& share) {
  std::uint64_t v = share.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint32_t front = std::uint32_t(v >> 32), back = std::uint32_t(v);
    if (front >= back) return -1;
    if (share.compare_exchange_weak(v, (std::uint64_t(front) << 32) | (back - 1), std::memory_order_relaxed))
      return int(back - 1);
  }
}

}  // namespace

void ThreadPool::ForEachHomed(int count, Item item, void* context) {
  const int threads = num_threads_;
  for (int w = 0; w < threads; ++w) {  // published to the workers by Run's handover
    const auto [first, last] = ShareOf(count, w);
    shares_[size_t(w)].store((std::uint64_t(first) << 32) | std::uint64_t(last), std::memory_order_relaxed);
  }
  struct Items {
    Item item;
    void* context;
    int threads;
    std::atomic<std::uint64_t>* shares;
  } items{item, context, threads, shares_.get()};
  Run(
      [](void* data, int worker) {
        Items& it = *static_cast<Items*>(data);
        for (int i = TakeFront(it.shares[worker]); i >= 0; i = TakeFront(it.shares[worker]))
          it.item(it.context, i, worker);
        for (int k = 1; k < it.threads; ++k) {
          std::atomic<std::uint64_t>& other = it.shares[(worker + k) % it.threads];
          for (int i = TakeBack(other); i >= 0; i = TakeBack(other)) it.item(it.context, i, worker);
        }
      },
      &items);
}

void ThreadPool::WorkerLoop(int worker) {
  Sync& s = *sync_;
  std::uint64_t seen = 0;
  for (;;) {
    Job job;
    void* context;
    SpinUntil([&] { return s.generation.load(std::memory_order_acquire) != seen; });
    {
      std::unique_lock<std::mutex> lock(s.mutex);
      s.start.wait(lock, [&] { return s.stopping || s.generation != seen; });
      if (s.stopping) return;
      seen = s.generation;
      job = s.job;
      context = s.context;
    }
    job(context, worker);
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (--s.pending == 0) s.done.notify_one();
    }
  }
}

}  // namespace joltgym
