import { adminAppResponse } from "~/utils/admin-app.server";

export const loader = () => adminAppResponse();
