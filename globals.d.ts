declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.ttf" {
  const path: string;
  export default path;
}
declare module "*.css";
declare module "*.bson" {
  const path: string;
  export default path;
}
