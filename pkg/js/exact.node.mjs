import exact from './exact.node.cjs';
export const { count } = exact;
export default exact;
