#include "envs/saved_state.h"

#include "tasks/task.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace joltgym {
namespace {

constexpr std::uint32_t kMagic = 0x5453474a;  // "JGST"
constexpr std::uint32_t kVersion = 2;  // a new layout of any part of a saved state: a new version
constexpr size_t kChecksumBytes = sizeof(std::uint64_t);

std::uint64_t Checksum(const unsigned char* data, size_t n) {  // FNV-1a
  std::uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

std::string Demangled(const std::type_info& type) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(type.name());
}

}  // namespace

std::string StateKind(const std::type_info& task, const std::vector<const CompiledModel*>& models) {
  std::string kind = Demangled(task) + " on";
  for (const CompiledModel* m : models)
    kind += " '" + m->desc().name + "' (nq " + std::to_string(m->nq()) + ", nv " + std::to_string(m->nv()) + ", nu " +
            std::to_string(m->nu()) + ", " + std::to_string(m->bodies().size()) + " bodies)";
  return kind;
}

std::string StateKind(const Task& task, const CompiledModel& model) { return StateKind(typeid(task), {&model}); }

void BeginSavedState(StateBuffer& out, const std::string& kind, const EpisodeState& episode) {
  out.Clear();
  out.Write(kMagic);
  out.Write(kVersion);
  out.Write(std::uint64_t(kind.size()));
  out.WriteBytes(kind.data(), kind.size());
  out.Write(episode.seed_state);
  out.Write(episode.elapsed);
  out.Write(episode.done);
}

void EndSavedState(StateBuffer& out) { out.Write(Checksum(out.data(), out.size())); }

EpisodeState OpenSavedState(StateBuffer& in, const std::string& kind, const std::string& which) {
  in.Rewind();
  std::uint32_t magic = 0, version = 0;
  in.Read(magic);
  in.Read(version);
  if (in.IsFailed() || magic != kMagic)
    throw std::invalid_argument(which + " is not a joltgym env state (get_state's bytes)");
  if (version != kVersion)
    throw std::invalid_argument(which + " is of state format " + std::to_string(version) + "; this joltgym reads format " +
                                std::to_string(kVersion));
  const size_t n = in.size();
  std::uint64_t stored = 0;
  if (n < kChecksumBytes) throw std::invalid_argument(which + " is cut short");
  std::memcpy(&stored, in.data() + n - kChecksumBytes, kChecksumBytes);
  if (stored != Checksum(in.data(), n - kChecksumBytes))
    throw std::invalid_argument(which + " is damaged or cut short (its checksum does not match its bytes)");
  std::uint64_t length = 0;
  in.Read(length);
  if (in.IsFailed() || length > n) throw std::invalid_argument(which + " is damaged (a bad header)");
  std::string saved(length, '\0');
  in.ReadBytes(saved.data(), length);
  if (saved != kind) throw std::invalid_argument(which + " is a state of " + saved + ", not of this env's " + kind);
  EpisodeState episode;
  in.Read(episode.seed_state);
  in.Read(episode.elapsed);
  in.Read(episode.done);
  if (in.IsFailed()) throw std::invalid_argument(which + " is cut short");
  return episode;
}

void RequireRestored(bool restored, const StateBuffer& in, const std::string& which, const std::string& env) {
  if (restored && !in.IsFailed() && in.read_position() + kChecksumBytes == in.size()) return;
  throw std::invalid_argument(which + " has the header of this task's states but not their contents (saved by another "
                              "build of joltgym?): " + env + " is left in no defined state; reset it");
}

}  // namespace joltgym
