import type { Metadata } from "next";
import { DeliveryDetailPage } from "@/components/webhooks/delivery-detail-page";

export const metadata: Metadata = { title: "Webhook delivery" };

export default async function Page({ params }: { params: Promise<{ projectId: string; deliveryId: string }> }) {
  const { projectId, deliveryId } = await params;
  return <DeliveryDetailPage projectId={projectId} deliveryId={decodeURIComponent(deliveryId)} />;
}
