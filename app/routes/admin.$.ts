import { adminAppResponse } from "~/utils/admin-app.server";

/** Deep links into the admin app (/admin/orders/…) get the same page; its router takes over. */
export const loader = () => adminAppResponse();
