import { adminAppResponse } from "~/admin-app.server";

export const loader = () => adminAppResponse();
