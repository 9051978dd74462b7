export {
  AmbientLight, AxesHelper, Box3, BoxGeometry, BufferAttribute, BufferGeometry, CapsuleGeometry,
  Color, CylinderGeometry, DirectionalLight, DoubleSide, Float32BufferAttribute, GridHelper, Group,
  HemisphereLight, Line, LineBasicMaterial, Matrix4, Mesh, MeshStandardMaterial, Object3D,
  PerspectiveCamera, Quaternion, Scene, SphereGeometry, Uint32BufferAttribute, Vector3,
  WebGLRenderer, REVISION,
} from "three";
export { OrbitControls } from "three/addons/controls/OrbitControls.js";
