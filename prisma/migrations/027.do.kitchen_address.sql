-- AddColumn: the kitchen's street address as the owner typed it in Settings
-- (issue 38 item 3): the coordinates it was found at stay in kitchenLat and
-- kitchenLon, which distances are measured from. Null until the owner saves one.
ALTER TABLE "ShopSettings" ADD COLUMN "kitchenAddress" TEXT;
