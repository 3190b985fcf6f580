// The renderer object each Python env keeps (its frame buffers and mesh caches).
#include "bindings/bindings.h"
#include "bindings/render_frame.h"

#include "render/mesh.h"

namespace joltgym::bindings {

void BindRender(py::module_& m) {
  py::class_<Renderer>(m, "Renderer", "Software renderer of joltgym worlds (no GPU, no OpenGL); one per env.")
      .def(py::init<>())
      .def_property_readonly_static("far_depth", [](py::object) { return Renderer::kFarDepth; });
  m.def(
      "geom_mesh",
      [](const GeomDesc& geom) {
        const Mesh mesh = MeshForGeom(geom);
        py::array_t<float> positions({py::ssize_t(mesh.positions.size()), py::ssize_t(3)});
        py::array_t<float> normals({py::ssize_t(mesh.normals.size()), py::ssize_t(3)});
        py::array_t<std::uint32_t> triangles({py::ssize_t(mesh.indices.size() / 3), py::ssize_t(3)});
        for (size_t i = 0; i < mesh.positions.size(); ++i)
          for (int k = 0; k < 3; ++k) {
            positions.mutable_at(py::ssize_t(i), k) = mesh.positions[i][k];
            normals.mutable_at(py::ssize_t(i), k) = mesh.normals[i][k];
          }
        std::copy(mesh.indices.begin(), mesh.indices.end(), triangles.mutable_data());
        return py::make_tuple(positions, normals, triangles);
      },
      py::arg("geom"), "The drawn mesh of a geom, in its own frame: (positions, normals, triangles).");
}

}  // namespace joltgym::bindings
