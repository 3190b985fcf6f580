#include <algorithm>
#include "bindings/bindings.h"

#include "model/model_desc.h"
#include "physics/model/compiled_model.h"

#include <pybind11/stl.h>

namespace joltgym::bindings {

void BindModel(py::module_& m) {
  py::enum_<GeomType>(m, "GeomType")
      .value("PLANE", GeomType::Plane)
      .value("HEIGHT_FIELD", GeomType::HeightField)
      .value("SPHERE", GeomType::Sphere)
      .value("CAPSULE", GeomType::Capsule)
      .value("CYLINDER", GeomType::Cylinder)
      .value("BOX", GeomType::Box);
  py::enum_<JointType>(m, "JointType")
      .value("FREE", JointType::Free)
      .value("BALL", JointType::Ball)
      .value("SLIDE", JointType::Slide)
      .value("HINGE", JointType::Hinge);

  py::class_<GeomDesc>(m, "GeomDesc")
      .def(py::init<>())
      .def_readwrite("name", &GeomDesc::name)
      .def_readwrite("type", &GeomDesc::type)
      .def_readwrite("size", &GeomDesc::size)
      .def_readwrite("pos", &GeomDesc::pos)
      .def_readwrite("quat", &GeomDesc::quat)
      .def_readwrite("contype", &GeomDesc::contype)
      .def_readwrite("conaffinity", &GeomDesc::conaffinity)
      .def_readwrite("friction", &GeomDesc::friction)
      .def_readwrite("condim", &GeomDesc::condim)
      .def_readwrite("mj_body", &GeomDesc::mj_body)
      .def_readwrite("rgba", &GeomDesc::rgba)
      .def_readwrite("group", &GeomDesc::group)
      .def_readwrite("solref", &GeomDesc::solref)
      .def_readwrite("solimp", &GeomDesc::solimp)
      .def_readwrite("solmix", &GeomDesc::solmix)
      .def_readwrite("priority", &GeomDesc::priority)
      .def_readwrite("margin", &GeomDesc::margin)
      .def_readwrite("gap", &GeomDesc::gap)
      .def_readwrite("invweight", &GeomDesc::invweight)
      .def_readwrite("height_field", &GeomDesc::height_field);
  py::class_<BodyDesc>(m, "BodyDesc")
      .def(py::init<>())
      .def_readwrite("name", &BodyDesc::name)
      .def_readwrite("parent", &BodyDesc::parent)
      .def_readwrite("pos", &BodyDesc::pos)
      .def_readwrite("quat", &BodyDesc::quat)
      .def_readwrite("mass", &BodyDesc::mass)
      .def_readwrite("com", &BodyDesc::com)
      .def_readwrite("inertia", &BodyDesc::inertia)
      .def_readwrite("geoms", &BodyDesc::geoms)
      .def_readwrite("mj_bodies", &BodyDesc::mj_bodies);
  py::class_<JointDesc>(m, "JointDesc")
      .def(py::init<>())
      .def_readwrite("name", &JointDesc::name)
      .def_readwrite("type", &JointDesc::type)
      .def_readwrite("body", &JointDesc::body)
      .def_readwrite("pos", &JointDesc::pos)
      .def_readwrite("axis", &JointDesc::axis)
      .def_readwrite("limited", &JointDesc::limited)
      .def_readwrite("range", &JointDesc::range)
      .def_readwrite("qposadr", &JointDesc::qposadr)
      .def_readwrite("dofadr", &JointDesc::dofadr)
      .def_readwrite("qpos0", &JointDesc::qpos0)
      .def_readwrite("armature", &JointDesc::armature)
      .def_readwrite("damping", &JointDesc::damping)
      .def_readwrite("stiffness", &JointDesc::stiffness)
      .def_readwrite("springref", &JointDesc::springref)
      .def_readwrite("solref", &JointDesc::solref)
      .def_readwrite("solimp", &JointDesc::solimp)
      .def_readwrite("margin", &JointDesc::margin)
      .def_readwrite("invweight", &JointDesc::invweight)
      .def_readwrite("frictionloss", &JointDesc::frictionloss)
      .def_readwrite("solref_friction", &JointDesc::solref_friction)
      .def_readwrite("solimp_friction", &JointDesc::solimp_friction)
      .def_readwrite("actfrclimited", &JointDesc::actfrclimited)
      .def_readwrite("actfrcrange", &JointDesc::actfrcrange);
  py::class_<SiteDesc>(m, "SiteDesc")
      .def(py::init<>())
      .def_readwrite("name", &SiteDesc::name)
      .def_readwrite("body", &SiteDesc::body)
      .def_readwrite("pos", &SiteDesc::pos)
      .def_readwrite("quat", &SiteDesc::quat);
  py::class_<HeightFieldDesc>(m, "HeightFieldDesc")
      .def(py::init<>())
      .def_readwrite("name", &HeightFieldDesc::name)
      .def_readwrite("nrow", &HeightFieldDesc::nrow)
      .def_readwrite("ncol", &HeightFieldDesc::ncol)
      .def_readwrite("size", &HeightFieldDesc::size)
      .def_readwrite("data", &HeightFieldDesc::data);
  py::class_<KeyframeDesc>(m, "KeyframeDesc")
      .def(py::init<>())
      .def_readwrite("name", &KeyframeDesc::name)
      .def_readwrite("qpos", &KeyframeDesc::qpos)
      .def_readwrite("ctrl", &KeyframeDesc::ctrl);
  py::class_<CameraDesc>(m, "CameraDesc")
      .def(py::init<>())
      .def_readwrite("name", &CameraDesc::name)
      .def_readwrite("mode", &CameraDesc::mode)
      .def_readwrite("body", &CameraDesc::body)
      .def_readwrite("pos", &CameraDesc::pos)
      .def_readwrite("quat", &CameraDesc::quat)
      .def_readwrite("world_pos0", &CameraDesc::world_pos0)
      .def_readwrite("world_quat0", &CameraDesc::world_quat0)
      .def_readwrite("fovy", &CameraDesc::fovy);
  py::class_<TendonDesc>(m, "TendonDesc")
      .def(py::init<>())
      .def_readwrite("name", &TendonDesc::name)
      .def_readwrite("joints", &TendonDesc::joints)
      .def_readwrite("coefs", &TendonDesc::coefs);
  py::class_<BodyFrameDesc>(m, "BodyFrameDesc")
      .def(py::init<>())
      .def_readwrite("name", &BodyFrameDesc::name)
      .def_readwrite("body", &BodyFrameDesc::body)
      .def_readwrite("pos", &BodyFrameDesc::pos)
      .def_readwrite("ipos", &BodyFrameDesc::ipos)
      .def_readwrite("iquat", &BodyFrameDesc::iquat)
      .def_readwrite("mass", &BodyFrameDesc::mass)
      .def_readwrite("inertia", &BodyFrameDesc::inertia);
  py::class_<ActuatorDesc>(m, "ActuatorDesc")
      .def(py::init<>())
      .def_readwrite("name", &ActuatorDesc::name)
      .def_readwrite("joint", &ActuatorDesc::joint)
      .def_readwrite("gear", &ActuatorDesc::gear)
      .def_readwrite("gainprm", &ActuatorDesc::gainprm)
      .def_readwrite("biasprm", &ActuatorDesc::biasprm)
      .def_readwrite("ctrllimited", &ActuatorDesc::ctrllimited)
      .def_readwrite("ctrlrange", &ActuatorDesc::ctrlrange)
      .def_readwrite("forcelimited", &ActuatorDesc::forcelimited)
      .def_readwrite("forcerange", &ActuatorDesc::forcerange);
  py::class_<SolverDesc>(m, "SolverDesc")
      .def(py::init<>())
      .def_readwrite("substeps", &SolverDesc::substeps)
      .def_readwrite("velocity_iterations", &SolverDesc::velocity_iterations)
      .def_readwrite("position_iterations", &SolverDesc::position_iterations)
      .def_readwrite("penetration_slop", &SolverDesc::penetration_slop)
      .def_readwrite("speculative_distance", &SolverDesc::speculative_distance)
      .def_readwrite("baumgarte", &SolverDesc::baumgarte)
      .def_readwrite("soft_limits", &SolverDesc::soft_limits)
      .def_readwrite("soft_contacts", &SolverDesc::soft_contacts)
      .def_readwrite("planar_links", &SolverDesc::planar_links)
      .def_readwrite("joint_rows_last", &SolverDesc::joint_rows_last)
      .def_readwrite("articulated_joints", &SolverDesc::articulated_joints)
      .def_readwrite("mujoco_euler", &SolverDesc::mujoco_euler);
  py::class_<ModelDesc>(m, "ModelDesc")
      .def(py::init<>())
      .def_readwrite("name", &ModelDesc::name)
      .def_readwrite("timestep", &ModelDesc::timestep)
      .def_readwrite("gravity", &ModelDesc::gravity)
      .def_readwrite("density", &ModelDesc::density)
      .def_readwrite("implicit_damping", &ModelDesc::implicit_damping)
      .def_readwrite("viscosity", &ModelDesc::viscosity)
      .def_readwrite("bodies", &ModelDesc::bodies)
      .def_readwrite("world_geoms", &ModelDesc::world_geoms)
      .def_readwrite("joints", &ModelDesc::joints)
      .def_readwrite("actuators", &ModelDesc::actuators)
      .def_readwrite("sites", &ModelDesc::sites)
      .def_readwrite("tendons", &ModelDesc::tendons)
      .def_readwrite("cameras", &ModelDesc::cameras)
      .def_readwrite("mj_body_frames", &ModelDesc::mj_body_frames)
      .def_readwrite("excluded_pairs", &ModelDesc::excluded_pairs)
      .def_readwrite("keyframes", &ModelDesc::keyframes)
      .def_readwrite("height_fields", &ModelDesc::height_fields)
      .def_readwrite("nq", &ModelDesc::nq)
      .def_readwrite("nv", &ModelDesc::nv)
      .def_readwrite("mj_nbody", &ModelDesc::mj_nbody)
      .def_readwrite("solver", &ModelDesc::solver);

  py::class_<CompiledModel, std::shared_ptr<CompiledModel>>(m, "Model",
                                                            "A model description compiled for Jolt; immutable and "
                                                            "shared by every world built from it.")
      .def(py::init([](const ModelDesc& desc) { return std::make_shared<CompiledModel>(desc); }), py::arg("desc"))
      .def_property_readonly("nq", &CompiledModel::nq)
      .def_property_readonly("nv", &CompiledModel::nv)
      .def_property_readonly("nu", &CompiledModel::nu)
      .def_property_readonly("timestep", &CompiledModel::timestep)
      .def_property_readonly("num_bodies", [](const CompiledModel& cm) { return cm.bodies().size(); })
      .def_property_readonly(
          "planar_links",
          [](const CompiledModel& cm) {
            return std::any_of(cm.bodies().begin(), cm.bodies().end(), [](const CompiledBody& b) { return b.planar_link; });
          },
          "Whether the model's links are restricted to its plane with point-constraint hinges (SolverDesc::planar_links).")
      .def_property_readonly("desc", &CompiledModel::desc, py::return_value_policy::copy);
}

}  // namespace joltgym::bindings
