// NumPy views of a robot's state, shared by the World and task-core bindings.
#pragma once

#include "physics/world/sensors.h"
#include "physics/world/world.h"
#include "tasks/com_terms.h"
#include "tasks/contact_terms.h"

#include "bindings/array_convert.h"

#include <pybind11/numpy.h>

namespace joltgym::bindings {

namespace py = pybind11;

inline py::array_t<float> QposArray(const Robot& w) {
  py::array_t<float> q(w.model().nq());
  w.GetQpos(q.mutable_data());
  return q;
}

inline py::array_t<float> QvelArray(const Robot& w) {
  py::array_t<float> v(w.model().nv());
  w.GetQvel(v.mutable_data());
  return v;
}

// Centre of mass of each simulated body, relative to the robot's origin, (num_bodies, 3).
inline py::array_t<float> BodyComArray(const Robot& w) {
  py::array_t<float> out({w.num_bodies(), 3});
  auto r = out.mutable_unchecked<2>();
  for (int i = 0; i < w.num_bodies(); ++i) {
    JPH::RVec3 p = w.BodyCentreOfMass(i);
    r(i, 0) = float(p.GetX()), r(i, 1) = float(p.GetY()), r(i, 2) = float(p.GetZ());
  }
  return out;
}

// Orientation (w, x, y, z) of each simulated body frame, (num_bodies, 4).
inline py::array_t<float> BodyQuatArray(const Robot& w) {
  py::array_t<float> out({w.num_bodies(), 4});
  auto r = out.mutable_unchecked<2>();
  for (int i = 0; i < w.num_bodies(); ++i) {
    JPH::Quat q = w.body(i).GetRotation();
    r(i, 0) = q.GetW(), r(i, 1) = q.GetX(), r(i, 2) = q.GetY(), r(i, 3) = q.GetZ();
  }
  return out;
}

// Angular then linear (COM) velocity of each simulated body, world frame, (num_bodies, 6).
inline py::array_t<float> BodyVelocityArray(const Robot& w) {
  py::array_t<float> out({w.num_bodies(), 6});
  auto r = out.mutable_unchecked<2>();
  for (int i = 0; i < w.num_bodies(); ++i) {
    JPH::Vec3 av = w.body(i).GetAngularVelocity(), lv = w.body(i).GetLinearVelocity();
    for (int k = 0; k < 3; ++k) r(i, k) = av[k], r(i, 3 + k) = lv[k];
  }
  return out;
}

// MuJoCo's cinert (10 per body) or cvel (6 per body), world row included (zeros).
template <int Width, class Term>
py::array_t<float> ComTermArray(const Robot& w, Term term) {
  const py::ssize_t n = w.model().desc().mj_nbody;
  py::array_t<float> out({n, py::ssize_t(Width)});
  std::fill(out.mutable_data(), out.mutable_data() + Width, 0.0f);
  term(w, RobotCentreOfMass(w), out.mutable_data() + Width);
  return out;
}

// What MuJoCo's site sensor `kind` reads for site `site`; ValueError naming a kind or site it lacks.
inline py::array_t<float> SiteSensorValue(const Robot& w, const std::string& kind, int site) {
  if (site < 0 || site >= int(w.model().desc().sites.size()))
    throw py::value_error("site " + std::to_string(site) + " is not a site of model '" + w.model().desc().name + "'");
  if (kind == "touch") {
    py::array_t<float> out(1);
    out.mutable_data()[0] = sensors::Touch(w, site);
    return out;
  }
  using Reader = JPH::Vec3 (*)(const Robot&, int);
  static const std::pair<const char*, Reader> kinds[] = {
      {"gyro", sensors::Gyro}, {"velocimeter", sensors::Velocimeter}, {"accelerometer", sensors::Accelerometer},
      {"framexaxis", sensors::FrameXAxis}, {"framezaxis", sensors::FrameZAxis},
      {"framelinvel", sensors::FrameLinVel}, {"frameangvel", sensors::FrameAngVel}};
  std::string known = "touch";
  for (const auto& [name, read] : kinds) {
    if (kind == name) {
      const JPH::Vec3 v = read(w, site);
      py::array_t<float> out(3);
      for (int k = 0; k < 3; ++k) out.mutable_data()[k] = v[k];
      return out;
    }
    known += ", " + std::string(name);
  }
  throw py::value_error("unknown site sensor '" + kind + "'; known: " + known);
}

inline const char* BodyComDoc() { return "Centre of mass of each simulated body (world axes, from the robot's origin)."; }

// The class's methods over its robot, shared by World and the task-core classes.
// `with_world(self, f)` runs f(Robot&) under the owner's call lock, so a view never
// reads a robot that a step on another Python thread is changing.
template <class Class, class WithWorld>
void DefineWorldViews(Class& cls, WithWorld with_world) {
  using Self = typename Class::type;
  auto view = [with_world](auto read) {
    return [with_world, read](Self& s) { return with_world(s, read); };
  };
  cls.def_property_readonly("qpos", view([](Robot& w) { return QposArray(w); }), "MuJoCo-ordered qpos (float32 copy).")
      .def_property_readonly("qvel", view([](Robot& w) { return QvelArray(w); }), "MuJoCo-ordered qvel (float32 copy).")
      .def_property_readonly(
          "qfrc_actuator",
          view([](Robot& w) {
            const auto& f = w.actuator_joint_forces();
            py::array_t<float> out(py::ssize_t(f.size()));
            std::copy(f.begin(), f.end(), out.mutable_data());
            return out;
          }),
          "Joint torques/forces the actuators applied in the last step (length nv).")
      .def("body_com", view([](Robot& w) { return BodyComArray(w); }), BodyComDoc())
      .def("body_quat", view([](Robot& w) { return BodyQuatArray(w); }), "Body frame orientations (w, x, y, z).")
      .def("body_velocity", view([](Robot& w) { return BodyVelocityArray(w); }),
           "Angular then linear COM velocity per body, world frame.")
      .def("cinert", view([](Robot& w) { return ComTermArray<10>(w, ComInertia); }),
           "MuJoCo's cinert per MuJoCo body (world row zero): inertia about the robot's centre of mass in "
           "world axes (xx, yy, zz, xy, xz, yz), mass * COM offset, mass.")
      .def("cvel", view([](Robot& w) { return ComTermArray<6>(w, ComVelocity); }),
           "MuJoCo's cvel per MuJoCo body (world row zero): angular velocity, then the linear velocity "
           "of the body's motion at the robot's centre of mass, world axes.")
      .def("max_joint_anchor_error", view([](Robot& w) { return w.MaxJointAnchorError(); }),
           "Largest separation (m) between the two bodies' copies of a joint anchor.")
      .def_property_readonly("update_errors", view([](Robot& w) { return w.world().update_errors(); }))
      .def("site_pos", view([](Robot& w) {
             const int n = int(w.model().desc().sites.size());
             py::array_t<float> out({n, 3});
             auto r = out.mutable_unchecked<2>();
             for (int i = 0; i < n; ++i) {
               JPH::RVec3 p = w.SitePosition(i);
               r(i, 0) = float(p.GetX()), r(i, 1) = float(p.GetY()), r(i, 2) = float(p.GetZ());
             }
             return out;
           }),
           "World position of each model site, (num_sites, 3).")
      .def(
          "site_sensor",
          [view](Self& self, const std::string& kind, int site) {
            return view([&kind, site](Robot& w) { return SiteSensorValue(w, kind, site); })(self);
          },
          py::arg("kind"), py::arg("site"),
          "What MuJoCo's site sensor `kind` (touch, gyro, velocimeter, accelerometer, framexaxis, framezaxis, "
          "framelinvel, frameangvel) reads for site index `site`, from the current state (touch: from the "
          "last physics update's contacts).")
      .def_property_readonly("actuator_force", view([](Robot& w) {
                               const std::vector<float>& f = w.actuator_forces();
                               py::array_t<float> out(py::ssize_t(f.size()));
                               std::copy(f.begin(), f.end(), out.mutable_data());
                               return out;
                             }),
                             "MuJoCo's actuator_force of the last physics update (float32 copy, length nu).")
      .def("contact_forces", view([](Robot& w) {
             py::array_t<float> out({py::ssize_t(w.model().desc().mj_nbody), py::ssize_t(6)});
             ExternalContactForces(w, out.mutable_data());
             return out;
           }),
           "MuJoCo's cfrc_ext of the last physics update: (torque, force) per MuJoCo body, world axes, "
           "torque about the robot's centre of mass.")
      .def("contact_points", view([](Robot& w) {
             py::list out;
             for (const ContactForce& c : w.ReadContactForces()) {
               if (c.robot != w.index()) continue;
               out.append(py::make_tuple(c.robot_body, int(c.geom_tag) - 1,
                                         py::make_tuple(float(c.point.GetX()), float(c.point.GetY()), float(c.point.GetZ())),
                                         py::make_tuple(c.force.GetX(), c.force.GetY(), c.force.GetZ())));
             }
             return out;
           }),
           "Contact points of the last update on simulated bodies: (body, mujoco body, point, force) each.")
      .def(
          "joint_limit_force",
          [with_world](Self& s, int joint) {
            return with_world(s, [joint](Robot& w) {
              if (joint < 0 || joint >= int(w.model().joints().size())) throw py::index_error("joint index out of range");
              return w.JointLimitForce(joint);
            });
          },
          py::arg("joint"), "Generalized force of the joint's range limit in the last physics update.")
      .def(
          "set_state",
          [with_world](Self& s, const py::object& qpos, const py::object& qvel) {
            with_world(s, [&](Robot& w) {
              auto q = AsFloatArray(qpos, {w.model().nq()}, "qpos");
              auto v = AsFloatArray(qvel, {w.model().nv()}, "qvel");
              w.SetState(q.data(), v.data());
            });
          },
          py::arg("qpos"), py::arg("qvel"), "Place every body from generalized coordinates (MuJoCo's forward kinematics).");
}

}  // namespace joltgym::bindings
